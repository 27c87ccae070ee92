"""A torch, torchvision or torchaudio pin with a CUDA local version (`torch==2.3.0+cu121`, `torchvision==0.18.0+cu118`,
poetry's `torch = "2.3.0+cu121"`) in a requirements file or pyproject.toml (or a `pip install` line of a shell
script or a Dockerfile's `RUN`/`CMD`/`ENTRYPOINT`, `sh -c` exec form included, or the `- pip:` sub-list of a conda
environment file).

Why: the `+cuXYZ` wheels are PyTorch's CUDA builds; they do not use AMD GPUs. The ROCm builds of the same release
carry `+rocmX.Y` instead (`torch==2.3.0+rocm6.0`) and live on the matching ROCm index (rule PY040 moves the index).

Fix (safe): `+cu121` becomes `+<rocm tag>` of the torch release the file pins (torch's own pin first, else
torchvision's or torchaudio's, those of its own `pip install` command or requirements line first, through the table
of `migrate/deploy/rocm_wheels.py`); the release number and every
other byte stay. A release the table does not know is reported without a fix. Direct wheel URLs of CUDA builds
(`torch @ https://.../torch-2.3.0%2Bcu121-...whl`) are reported by PY044.
"""
from __future__ import annotations

from migrate.deploy.dependencies import dependencies, pinned_torch
from migrate.deploy.rocm_wheels import CUDA_LOCAL, TORCH_FAMILY, rocm_tag
from migrate.model import Edit, Severity
from migrate.rule import DeployRule, Invalid, Valid


class CudaLocalVersion(DeployRule):
    code = "PY041"
    severity = Severity.INFO
    file_kinds = ("requirements", "pyproject", "shell", "docker", "yaml")
    example_path = "requirements.txt"
    examples = [
        Valid("torch==2.3.0+rocm6.0\ntorchvision==0.18.0\n"),
        Valid("torch-scatter==2.1.2\nmy-cuda-tools==1.0+cu121\n"),
        Invalid("#!/bin/sh\npip install torch==2.3.1+cu121 torchvision==0.18.1+cu121\n",
                fixed="#!/bin/sh\npip install torch==2.3.1+rocm6.0 torchvision==0.18.1+rocm6.0\n", path="install.sh",
                line=2),
        Invalid('FROM python:3.11\n'
                'RUN ["/bin/sh", "-c", "pip install \\"torch==2.3.1+cu121\\" torchvision==0.18.1+cu121"]\n',
                fixed='FROM python:3.11\n'
                      'RUN ["/bin/sh", "-c", "pip install \\"torch==2.3.1+rocm6.0\\" torchvision==0.18.1+rocm6.0"]\n',
                path="Dockerfile", line=2),
        Invalid("torch==2.3.0+cu121\ntorchvision==0.18.0+cu121\ntorchaudio==2.3.0+cu121  # audio\n",
                fixed="torch==2.3.0+rocm6.0\ntorchvision==0.18.0+rocm6.0\ntorchaudio==2.3.0+rocm6.0  # audio\n",
                line=1,
                message="torch==2.3.0+cu121 pins PyTorch's CUDA build: the ROCm build of torch 2.3.0 is +rocm6.0"),
        Invalid("FROM python:3.11\nRUN pip install torch==2.3.1+cu121\nRUN pip install torch==2.5.1+cu124\n",
                fixed="FROM python:3.11\nRUN pip install torch==2.3.1+rocm6.0\nRUN pip install torch==2.5.1+rocm6.2\n",
                path="Dockerfile", line=2),
        Invalid("torch==1.13.1+cu117 -f https://wheels.example.org/whl/torch_stable.html\n",
                fixed="torch==1.13.1+rocm5.2 -f https://wheels.example.org/whl/torch_stable.html\n"),
        Invalid("torchvision==0.20.1+cu124 ; sys_platform == 'linux'\n",
                fixed="torchvision==0.20.1+rocm6.2 ; sys_platform == 'linux'\n"),
        Invalid("[project]\ndependencies = [\n    \"torch==2.7.1+cu126\",\n    \"numpy\",\n]\n",
                fixed="[project]\ndependencies = [\n    \"torch==2.7.1+rocm6.3\",\n    \"numpy\",\n]\n",
                line=3, path="pyproject.toml"),
        Invalid("[tool.poetry.dependencies]\npython = \"^3.10\"\n"
                "torch = {version = \"2.4.1+cu121\", source = \"pt\"}\n",
                fixed="[tool.poetry.dependencies]\npython = \"^3.10\"\ntorch = {version = \"2.4.1+rocm6.1\", "
                      "source = \"pt\"}\n",
                line=3, path="pyproject.toml"),
        Invalid("name: train\ndependencies:\n  - python=3.10\n  - pip:\n      - torch==2.3.1+cu121\n      - numpy\n",
                fixed="name: train\ndependencies:\n  - python=3.10\n  - pip:\n      - torch==2.3.1+rocm6.0\n"
                      "      - numpy\n", path="environment.yml", line=5),
        Invalid("torch==2.99.0+cu126\n", line=1,
                message="torch==2.99.0+cu126 pins PyTorch's CUDA build, and hipmigrate does not know which ROCm "
                        "version torch 2.99.0 is published for: replace +cu126 with its +rocm tag by hand"),
        Valid("torch==2.3.1+cu12=0.18.1+cu121\n"),
    ]

    def check(self, ctx):
        deps, _ = dependencies(ctx)
        for dep in deps:
            if dep.key not in TORCH_FAMILY:
                continue
            release = pinned_torch(deps, dep.group)  # the pin of the same pip command or line first
            tag = rocm_tag(release)
            for version in dep.versions:
                local = CUDA_LOCAL.search(version.text)
                if local is None or version.text.count("+") != 1:
                    continue  # no local version, or text that is no version (two of them: a fuzz find)
                start = version.start + len(version.text[:local.start()].encode("utf-8", "surrogateescape"))
                end = version.start + len(version.text[:local.end()].encode("utf-8", "surrogateescape"))
                shown = f"{dep.name}{version.operator}{version.text}" if version.operator else \
                    f"{dep.name} {version.text}"
                head = f"{shown} pins PyTorch's CUDA build"
                released = ".".join(map(str, release)) if release else version.text[:local.start()]
                if tag is None:
                    yield self.finding(ctx, dep.start, version.end, f"{head}, and hipmigrate does not know which ROCm "
                                       f"version torch {released} is published for: replace {local[0]} with its "
                                       "+rocm tag by hand", severity=Severity.WARNING)
                    continue
                yield self.finding(ctx, dep.start, version.end,
                                   f"{head}: the ROCm build of torch {released} is +{tag}",
                                   edits=[Edit(start, end, "+" + tag)], title=f"Pin the +{tag} build")
