"""uv's PyTorch backend set to a CUDA build: `UV_TORCH_BACKEND=cu126` (a shell script, a Dockerfile's `ENV`, a CI
`env:`, Python's `os.environ`, a `.env` file) or `uv pip install --torch-backend=cu126` / `--torch-backend cu126` in
shell text (scripts, Dockerfile `RUN`, CI steps).

Why: uv chooses the PyTorch index from the backend, and `cu126` installs the CUDA builds of torch, torchvision and
torchaudio: on an AMD GPU `torch.cuda.is_available()` is False with them. uv's ROCm backends (uv 0.7.14 and later)
are named after the ROCm releases PyTorch publishes wheels for (`rocm6.4`, `rocm6.3`, `rocm6.2.4`, ...); which one
depends on the torch release and on the uv release, so no fix is written. `auto` picks by the GPU of the machine
that installs, and a `docker build` has none.

A setting that passes on a variable of the same file (`ARG TORCH_BACKEND="cu126"` then
`UV_TORCH_BACKEND=$TORCH_BACKEND uv pip install torch`, axolotl's base image) is reported at the literal, where
the edit goes, with the use named (migrate/deploy/env_flow.py).
"""
from __future__ import annotations

import re

from migrate.deploy.env import env_sites
from migrate.deploy.env_flow import origin
from migrate.deploy.env_site import Access
from migrate.deploy.shell_commands import commands, text
from migrate.model import Severity
from migrate.rule import DeployRule, Invalid, Valid

VARIABLE = "UV_TORCH_BACKEND"
CUDA = re.compile(r"cu\d{2,3}")
CHOICE = ("a ROCm backend (rocm6.4, rocm6.3, ...: the ROCm release PyTorch publishes for your torch, in a uv "
          "release that knows it), or `auto` where the machine that installs has the AMD GPU")


class UvCudaTorchBackend(DeployRule):
    code = "PY071"
    severity = Severity.WARNING
    fixable = False
    file_kinds = ("python", "shell", "docker", "yaml", "dotenv")
    example_path = "install.sh"
    examples = [
        Valid("#!/bin/sh\nUV_TORCH_BACKEND=rocm6.4 uv pip install torch\nuv pip install --torch-backend=auto torch\n"),
        Valid("#!/bin/sh\necho 'uv pip install --torch-backend=cu126 torch'\n"),
        Invalid("#!/bin/sh\nexport UV_TORCH_BACKEND=cu126\nuv pip install torch torchvision\n", line=2,
                message="UV_TORCH_BACKEND=cu126 makes uv install PyTorch's CUDA builds, which do not run on AMD GPUs: "
                        "set a ROCm backend (rocm6.4, rocm6.3, ...: the ROCm release PyTorch publishes for your "
                        "torch, in a uv release that knows it), or `auto` where the machine that installs has the "
                        "AMD GPU"),
        Invalid("jobs:\n  t:\n    steps:\n      - run: uv pip install --torch-backend cu128 torch\n"
                "      - run: uv pip install --torch-backend=cu118 -r requirements.txt\n",
                path=".github/workflows/test.yml", line=4),
        # passed on from a build argument: reported at its literal (axolotl's uv base image)
        Invalid('FROM rocm/dev-ubuntu-24.04:7.1-complete\nARG TORCH_BACKEND="cu126"\n'
                "RUN UV_TORCH_BACKEND=$TORCH_BACKEND uv pip install torch==2.6.0\n", path="Dockerfile", line=2,
                message="TORCH_BACKEND=cu126 reaches uv's torch backend (UV_TORCH_BACKEND, line 3), which then "
                        "installs PyTorch's CUDA builds, which do not run on AMD GPUs: set a ROCm backend (rocm6.4, "
                        "rocm6.3, ...: the ROCm release PyTorch publishes for your torch, in a uv release that knows "
                        "it), or `auto` where the machine that installs has the AMD GPU"),
        Invalid('import os\nos.environ["UV_TORCH_BACKEND"] = "cu124"\n', path="setup_env.py", line=2),
    ]

    def check(self, ctx):
        if b"torch-backend" in ctx.data:
            yield from self._options(ctx)
        if VARIABLE.encode() not in ctx.data:
            return
        sites = env_sites(ctx)
        for site in sites:
            if site.name != VARIABLE or site.access is not Access.SET:
                continue
            if site.value is not None and CUDA.fullmatch(site.value.strip()):
                yield self.finding(ctx, site.start, site.end, f"{VARIABLE}={site.value.strip()} makes uv install "
                                   f"PyTorch's CUDA builds, which do not run on AMD GPUs: set {CHOICE}")
                continue
            found = origin(ctx, sites, site) if site.value is None and ctx.kind != "python" else None
            for setting in found.settings if found else ():
                if CUDA.fullmatch(setting.value.strip()):
                    yield self.finding(ctx, setting.value_start, setting.value_end,
                                       f"{setting.name}={setting.value.strip()} reaches uv's torch backend ({VARIABLE}, "
                                       f"line {ctx.span(site.start, site.start).line}), which then installs PyTorch's CUDA builds, which do not run on "
                                       f"AMD GPUs: set {CHOICE}")

    def _options(self, ctx):
        for shell, command, _ in commands(ctx, "uv"):
            arguments = command.children_by_field_name("argument")
            words = [text(shell, a) for a in arguments]
            for i, word in enumerate(words):
                value, node = None, arguments[i]
                if word.startswith("--torch-backend="):
                    value = word.partition("=")[2]
                elif word == "--torch-backend" and i + 1 < len(words):
                    value, node = words[i + 1], arguments[i + 1]
                if value is not None and CUDA.fullmatch(value):
                    yield self.finding(ctx, shell.at(node.start_byte), shell.at(node.end_byte),
                                       f"--torch-backend {value} makes uv install PyTorch's CUDA builds, which do "
                                       f"not run on AMD GPUs: pass {CHOICE}")
