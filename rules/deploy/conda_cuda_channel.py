"""NVIDIA's conda channel (`nvidia`, or its URL), or PyTorch's (`pytorch`, `pytorch-nightly`), in the `channels:` of
a conda environment file (migrate/deploy/conda_env.py); also a package taken from one of them by name
(`nvidia::cuda-toolkit`, `pytorch::torchvision`) when PY064 does not already report that package.

Why: the `nvidia` channel holds CUDA's toolkit and libraries and nothing else; PyTorch's channel holds its CUDA and
CPU builds only (and PyTorch stopped publishing there after 2.5). Neither has ROCm builds: on ROCm, PyTorch comes
from PyTorch's ROCm wheels through pip (a `- pip:` entry with `--index-url .../whl/rocm7.1`).

No fix: dropping a channel changes what the other packages resolve to; drop it once the CUDA packages that need it
(PY064) are gone.
"""
from __future__ import annotations

from migrate.deploy.conda_env import conda_env
from migrate.deploy.conda_packages import channel_name, classify
from migrate.deploy.rocm_wheels import NEWEST_TAG
from migrate.model import Severity
from migrate.rule import DeployRule, Invalid, Valid

CHANNELS = {"nvidia": "NVIDIA's conda channel, which holds CUDA's toolkit and libraries only",
            "pytorch": "PyTorch's conda channel, which holds its CUDA and CPU builds only",
            "pytorch-nightly": "PyTorch's nightly conda channel, which holds its CUDA and CPU builds only"}
ROCM = (f"AMD GPUs need PyTorch's ROCm wheels through pip (a `- pip:` entry with `--index-url "
        f".../whl/{NEWEST_TAG}`): drop this channel once its CUDA packages are gone")


class CondaCudaChannel(DeployRule):
    code = "PY065"
    severity = Severity.WARNING
    fixable = False
    file_kind = "yaml"
    example_path = "environment.yml"
    examples = [
        Valid("channels:\n  - conda-forge\n  - defaults\ndependencies:\n  - python=3.11\n"),
        Valid("channels:\n  - nvidia\n"),  # no dependencies: not a conda environment file
        Invalid("name: train\nchannels:\n  - pytorch\n  - nvidia/label/cuda-12.1.0\n  - conda-forge\n"
                "dependencies:\n  - python=3.10\n", line=3,
                message="pytorch is PyTorch's conda channel, which holds its CUDA and CPU builds only: AMD GPUs need "
                        "PyTorch's ROCm wheels through pip (a `- pip:` entry with `--index-url .../whl/rocm7.1`): "
                        "drop this channel once its CUDA packages are gone"),
        Invalid("channels: [conda-forge]\ndependencies:\n  - nvidia::nsight-compute\n", line=3),
    ]

    def check(self, ctx):
        env = conda_env(ctx)
        if env is None:
            return
        for entry in env.channels:
            what = CHANNELS.get(channel_name(entry.text))
            if what:
                yield self.finding(ctx, entry.start, entry.end, f"{entry.text.strip()} is {what}: {ROCM}")
        for package in env.packages:
            what = CHANNELS.get(package.channel)
            if what and classify(package.name) is None:
                entry = package.entry
                yield self.finding(ctx, entry.start, entry.end,
                                   f"{entry.text.strip()} comes from {what}: {ROCM}")
