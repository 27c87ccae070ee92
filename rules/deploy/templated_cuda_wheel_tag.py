"""A CUDA wheel tag built from a variable (migrate/deploy/cuda_templates.py): a PyTorch wheel index
`.../whl/cu${CUDA_VERSION}`, `.../whl/cu${{ matrix.cuda }}` in a workflow, `f".../whl/cu{ver}"` in Python, and a
local version `torch==2.1.0+cu${CUDA}`, in requirements files, pyproject.toml, shell scripts, Dockerfiles, YAML
(CI workflows, conda environments), `.env` files and Python strings.

Why: whatever the variable holds, the result names one of PyTorch's CUDA builds, which do not use AMD GPUs. The ROCm
builds live on indexes named after the ROCm release (`.../whl/rocm7.1`) and carry `+rocm7.1` as local version;
PyTorch publishes one or two ROCm tags per torch release (the table in `migrate/deploy/rocm_wheels.py`).

No fix: the version is a variable, so the tag to write depends on what the build matrix or the caller passes. Write
the ROCm form instead: `rocm${ROCM_VERSION}` (or `+rocm${ROCM_VERSION}`) with a variable that holds a ROCm release
PyTorch publishes for your torch version, or a literal tag. The literal forms (`/whl/cu121`, `+cu121`) are PY040's and
PY041's, with safe fixes; image tags with placeholders (`nvidia/cuda:${CUDA_VERSION}-devel-ubuntu22.04`) are PY050's.
"""
from __future__ import annotations

from migrate.deploy.cuda_templates import templated
from migrate.deploy.rocm_wheels import NEWEST_TAG
from migrate.model import Severity
from migrate.rule import DeployRule, Invalid, Valid


class TemplatedCudaWheelTag(DeployRule):
    code = "PY066"
    severity = Severity.WARNING
    fixable = False
    file_kinds = ("requirements", "pyproject", "shell", "docker", "yaml", "dotenv", "python")
    example_path = "install.sh"
    examples = [
        Valid("#!/bin/sh\npip install torch --index-url \"https://wheels.example.org/whl/rocm${ROCM_VERSION}\"\n"
              "# pip install torch --index-url https://wheels.example.org/whl/cu${CUDA}\n"
              "export LD_LIBRARY_PATH=\"$SITE/nvidia/cu${CUDA_MAJOR}/lib:$LD_LIBRARY_PATH\"\n"),
        Valid("URL = 'https://wheels.example.org/whl/cu121'\nname = f'cuda{ver}'\n", path="setup_env.py"),
        Invalid("#!/bin/sh\nCUDA_VERSION=121\n"
                "pip install torch --index-url \"https://wheels.example.org/whl/cu${CUDA_VERSION}\"\n", line=3,
                message="cu${CUDA_VERSION} names one of PyTorch's CUDA wheel indexes, whatever the variable holds: "
                        "AMD GPUs need a ROCm index: write rocm${ROCM_VERSION} (a ROCm release PyTorch publishes "
                        "for your torch, e.g. rocm7.1) or a literal tag"),
        Invalid("jobs:\n  test:\n    strategy:\n      matrix:\n        cuda: ['118', '121']\n    steps:\n"
                "      - run: pip install torch==2.1.0+cu${{ matrix.cuda }} "
                "-f https://wheels.example.org/whl/cu${{ matrix.cuda }}/torch_stable.html\n",
                path=".github/workflows/test.yml", line=7,
                message="+cu${{ matrix.cuda }} pins one of PyTorch's CUDA builds, whatever the variable holds: "
                        "AMD GPUs need the ROCm build: write +rocm${ROCM_VERSION} (a ROCm release PyTorch publishes "
                        "for your torch, e.g. +rocm7.1) or a literal tag"),
        Invalid("def index(ver):\n    return f\"https://wheels.example.org/whl/cu{ver}\"\n", path="setup_env.py",
                line=2),
        Invalid("import subprocess\n\n\ndef install(torch, cuda):\n"
                "    subprocess.check_call([\"pip\", \"install\", f\"torch=={torch}+cu{cuda}\"])\n",
                path="setup_env.py", line=5),
        Invalid("ARG CUDA=121\nFROM python:3.11\nRUN pip install torch --extra-index-url "
                "https://wheels.example.org/whl/cu$CUDA\n", path="Dockerfile", line=3),
        # pip expands ${NAME} in requirements files (tree-sitter-requirements rejects it; read through a copy)
        Invalid("torch==2.1.0+cu${CUDA} --extra-index-url https://wheels.example.org/whl/cu${CUDA}\nnumpy\n",
                path="requirements.txt", line=1),
        Invalid("name: train\ndependencies:\n  - pip:\n      - torch==2.1.0+cu{{ cuda }}\n",
                path="environment.yml", line=4),
        # a variable named for CUDA that holds the whole tag (detectron2's wheel build script)
        Invalid('#!/bin/bash\npip install torch \\\n'
                '  -f https://download.pytorch.org/whl/"$CU_VERSION"/torch_stable.html\n',
                path="build_wheel.sh", line=3),
        Valid("#!/bin/bash\npip install torch --index-url https://download.pytorch.org/whl/$TORCH_BACKEND\n"
              "cp build/$CUSTOM/x.whl dist/\n", path="build.sh"),
    ]

    def check(self, ctx):
        for site in templated(ctx):
            if site.what == "image":
                continue  # PY069's
            if site.what == "index":
                message = (f"{site.tag} names one of PyTorch's CUDA wheel indexes, whatever the variable holds: AMD "
                           "GPUs need a ROCm index: write rocm${ROCM_VERSION} (a ROCm release PyTorch publishes for "
                           f"your torch, e.g. {NEWEST_TAG}) or a literal tag")
            else:
                message = (f"+{site.tag} pins one of PyTorch's CUDA builds, whatever the variable holds: AMD GPUs "
                           "need the ROCm build: write +rocm${ROCM_VERSION} (a ROCm release PyTorch publishes for "
                           f"your torch, e.g. +{NEWEST_TAG}) or a literal tag")
            yield self.finding(ctx, site.start, site.end, message)
