"""NVIDIA's container runtime on a container command line: `--runtime=nvidia` (or `--runtime nvidia`) on
`docker run`/`create`, in shell scripts, YAML `run:` blocks and CI `container: options:`, and the `nvidia-docker`
wrapper.

Why: the `nvidia` runtime and `nvidia-docker` exist only where NVIDIA's container toolkit is installed; an AMD
host has neither, so the command fails. AMD GPUs reach a container as devices (`--device=/dev/kfd
--device=/dev/dri --group-add video`, from ROCm's container guide).

Fix (unsafe, with `--unsafe-fixes`): `--runtime=nvidia` is removed when the same command also has `--gpus` (PY061
turns that into the devices), else replaced by the device options. Unsafe because the runtime may have selected
GPUs through `NVIDIA_VISIBLE_DEVICES` (the devices give every GPU; the environment-variable rules report that
variable). `nvidia-docker` is reported without a fix: use `docker` with the device options.
"""
from __future__ import annotations

from migrate.deploy.container_flags import (GPUS, NVIDIA_DOCKER, ROCM_DEVICE_OPTIONS, RUNTIME, region_bytes,
                                            regions)
from migrate.model import Applicability, Edit, Severity
from migrate.rule import DeployRule, Invalid, Valid

RUNTIME_MESSAGE = ("--runtime=nvidia selects NVIDIA's container runtime, which AMD hosts lack: AMD GPUs are given to "
                   "a container as devices: " + ROCM_DEVICE_OPTIONS)
WRAPPER_MESSAGE = ("nvidia-docker is NVIDIA's docker wrapper, which AMD hosts lack: use docker with "
                   + ROCM_DEVICE_OPTIONS)


class NvidiaContainerRuntime(DeployRule):
    code = "PY062"
    severity = Severity.WARNING
    applicability = Applicability.UNSAFE
    file_kinds = ("shell", "yaml")
    example_path = "launch.sh"
    examples = [
        Valid("docker run --runtime=runc img\n"),
        Invalid("docker run --runtime=nvidia -e NVIDIA_VISIBLE_DEVICES=all img\n", line=1, message=RUNTIME_MESSAGE),
        Invalid("docker run --runtime=nvidia -e NVIDIA_VISIBLE_DEVICES=all img\n",
                fixed="docker run --device=/dev/kfd --device=/dev/dri --group-add video -e NVIDIA_VISIBLE_DEVICES=all "
                      "img\n",
                options=(("unsafe_fixes", True),)),
        Invalid("docker run --gpus all --runtime nvidia img\n", fixed="docker run --gpus all img\n",
                options=(("unsafe_fixes", True),)),
        Invalid("nvidia-docker run --rm img\n", message=WRAPPER_MESSAGE),
    ]

    def check(self, ctx):
        seen: set[int] = set()
        for start, text in regions(ctx):
            has_gpus = GPUS.search(text) is not None
            for match in RUNTIME.finditer(text):
                flag = region_bytes(start, text, match.end("space"))
                if flag in seen:
                    continue
                seen.add(flag)
                end = region_bytes(start, text, match.end())
                if has_gpus:
                    edit = Edit(region_bytes(start, text, match.start()), end, "")
                else:
                    edit = Edit(flag, end, ROCM_DEVICE_OPTIONS)
                yield self.finding(ctx, flag, end, RUNTIME_MESSAGE, edits=[edit],
                                   title="Drop NVIDIA's container runtime")
            for match in NVIDIA_DOCKER.finditer(text):
                begin = region_bytes(start, text, match.start())
                if begin in seen:
                    continue
                seen.add(begin)
                yield self.finding(ctx, begin, region_bytes(start, text, match.end()), WRAPPER_MESSAGE)
