"""`--gpus` on a `docker run`/`podman run`/`docker create` command line: in shell scripts, in YAML `run:` blocks and
command strings, and in a CI job's `container: options:` (`--gpus all`, `--gpus=all`, `--gpus '"device=0,1"'`,
`--gpus 2`).

Why: `--gpus` asks NVIDIA's container toolkit for GPUs; on an AMD host docker fails with "could not select device
driver". ROCm's container guide gives a container AMD GPUs as devices instead: `--device=/dev/kfd` (the compute
interface) and `--device=/dev/dri` (the GPUs' render nodes), with `--group-add video` for access.

Fix: `--gpus <value>` becomes `--device=/dev/kfd --device=/dev/dri --group-add video`. Safe for `--gpus all`;
unsafe (`--unsafe-fixes`) for a count or a device list, since the devices give the container every GPU: restrict
it with `--device=/dev/dri/renderD<N>` entries or `HIP_VISIBLE_DEVICES`. On hosts where the GPU nodes belong to
`render`, a non-root container user also needs `--group-add` with the host's render group id.
"""
from __future__ import annotations

from migrate.deploy.container_flags import GPUS, ROCM_DEVICE_OPTIONS, region_bytes, regions
from migrate.model import Applicability, Edit, Severity
from migrate.rule import DeployRule, Invalid, Valid

MESSAGE = ("--gpus {value} asks NVIDIA's container toolkit for GPUs: AMD GPUs are given to a container as devices: "
           + ROCM_DEVICE_OPTIONS)
SOME = "; that gives it every GPU: restrict it with --device=/dev/dri/renderD<N> or HIP_VISIBLE_DEVICES"


class DockerGpusFlag(DeployRule):
    code = "PY061"
    severity = Severity.WARNING
    file_kinds = ("shell", "yaml")
    example_path = "run.sh"
    examples = [
        Valid("docker run --device=/dev/kfd --device=/dev/dri --group-add video img\n"),
        Valid("echo 'use --gpus all with docker'\n"),
        Invalid("#!/bin/bash\ndocker run --rm --gpus all -v \"$PWD\":/w trainer:latest python train.py\n",
                fixed="#!/bin/bash\ndocker run --rm --device=/dev/kfd --device=/dev/dri --group-add video -v "
                      "\"$PWD\":/w trainer:latest python train.py\n",
                line=2, message=MESSAGE.format(value="all")),
        Invalid("sudo docker run --gpus '\"device=0,1\"' img\n",
                message=MESSAGE.format(value="'\"device=0,1\"'") + SOME),
        Invalid("sudo docker run --gpus '\"device=0,1\"' img\n",
                fixed="sudo docker run --device=/dev/kfd --device=/dev/dri --group-add video img\n",
                options=(("unsafe_fixes", True),)),
        Invalid("jobs:\n  test:\n    runs-on: [self-hosted, linux]\n    container:\n      image: trainer:latest\n"
                "      options: --gpus=all --shm-size=8g\n",
                fixed="jobs:\n  test:\n    runs-on: [self-hosted, linux]\n    container:\n      image: trainer:latest\n"
                      "      options: --device=/dev/kfd --device=/dev/dri --group-add video --shm-size=8g\n",
                path=".github/workflows/test.yml", line=6),
        Invalid("steps:\n  - run: |\n      docker run --gpus all img nvidia-smi\n",
                fixed="steps:\n  - run: |\n      docker run --device=/dev/kfd --device=/dev/dri --group-add video img "
                      "nvidia-smi\n",
                path="ci.yaml"),
    ]

    def check(self, ctx):
        seen: set[int] = set()
        for start, text in regions(ctx):
            for match in GPUS.finditer(text):
                begin = region_bytes(start, text, match.start())
                if begin in seen:
                    continue
                seen.add(begin)
                end = region_bytes(start, text, match.end())
                value = match["value"]
                every = value.strip("'\"") == "all"
                yield self.finding(ctx, begin, end, MESSAGE.format(value=value) + ("" if every else SOME),
                                   edits=[Edit(begin, end, ROCM_DEVICE_OPTIONS)],
                                   title="Pass /dev/kfd and /dev/dri",
                                   applicability=Applicability.SAFE if every else Applicability.UNSAFE)
