"""`CUDA_VISIBLE_DEVICES` set, unset or read, in Python, shell scripts, `.env` files, Dockerfiles and YAML: kept, with a note.

The HIP runtime honours `CUDA_VISIBLE_DEVICES` as it is, so nothing needs to change. ROCm has two more ways to pick
GPUs, which a ROCm job scheduler or container may use instead: `HIP_VISIBLE_DEVICES` (read by the HIP runtime, like
`CUDA_VISIBLE_DEVICES`) and `ROCR_VISIBLE_DEVICES` (read by the ROCm runtime underneath, applied first, so the HIP
indices then count only the GPUs it left). A setting is noted so that the two are not combined by mistake; a read is
noted because it does not see a selection made with the ROCm variables (counting GPUs from `CUDA_VISIBLE_DEVICES`
then gives the wrong number; `torch.cuda.device_count()` sees every kind).

No fix: the code is right as it is.
"""
from __future__ import annotations

from migrate.deploy.env import rule_sites
from migrate.deploy.env_site import Access

from migrate.rule import EnvRule, Invalid, Valid

NAME = "CUDA_VISIBLE_DEVICES"


class CudaVisibleDevicesVariable(EnvRule):
    code = "PY023"
    fixable = False
    example_path = "launch.py"
    examples = [
        Valid('import os\nos.environ["HIP_VISIBLE_DEVICES"] = "0,1"\n'),
        Valid("export ROCR_VISIBLE_DEVICES=0\n", path="run.sh"),
        Invalid('import os\nos.environ["CUDA_VISIBLE_DEVICES"] = "0,1"\n', line=2,
                message="CUDA_VISIBLE_DEVICES kept: HIP honours it; ROCm also selects GPUs with HIP_VISIBLE_DEVICES "
                        "and ROCR_VISIBLE_DEVICES (applied first, by the ROCm runtime): do not combine them by "
                        "mistake"),
        Invalid('import os\nn = len(os.environ.get("CUDA_VISIBLE_DEVICES", "").split(","))\n', line=2,
                message="reads CUDA_VISIBLE_DEVICES: on ROCm GPUs may also be selected with HIP_VISIBLE_DEVICES or "
                        "ROCR_VISIBLE_DEVICES, which this read does not see"),
        Invalid("CUDA_VISIBLE_DEVICES=0 torchrun --nproc-per-node 1 train.py\n", line=1, path="run.sh"),
        Invalid("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: trainer-env\ndata:\n"
                "  CUDA_VISIBLE_DEVICES: \"0,1\"\n  NCCL_DEBUG: INFO\n", line=6, path="configmap.yaml"),
        Invalid('FROM python:3.11\nRUN ["/bin/sh", "-c", "export CUDA_VISIBLE_DEVICES=0 && python train.py"]\n', line=2,
                path="Dockerfile"),
        Invalid("services:\n  trainer:\n    environment:\n      - CUDA_VISIBLE_DEVICES=0\n", line=4,
                path="docker-compose.yml"),
    ]

    def check(self, ctx):
        for site in rule_sites(ctx):
            if site.name != NAME:
                continue
            if site.access is Access.READ:
                message = (f"reads {NAME}: on ROCm GPUs may also be selected with HIP_VISIBLE_DEVICES or "
                           "ROCR_VISIBLE_DEVICES, which this read does not see")
            else:
                message = (f"{NAME} kept: HIP honours it; ROCm also selects GPUs with HIP_VISIBLE_DEVICES and "
                           "ROCR_VISIBLE_DEVICES (applied first, by the ROCm runtime): do not combine them by mistake")
            yield self.finding(ctx, site.start, site.end, message)
