"""NVIDIA's CUDA package repository set up or mended by a Dockerfile `RUN`, a shell script or a CI step: a URL of
NVIDIA's CUDA or machine-learning repositories (`curl -fsSLO https://developer.download.nvidia.com/compute/cuda/
repos/ubuntu2404/x86_64/cuda-keyring_1.1-1_all.deb`, `apt-key adv --fetch-keys https://developer.download.nvidia.com/
.../3bf863cc.pub`), the `cuda-keyring` package installed (`dpkg -i cuda-keyring_1.1-1_all.deb`), and the lists those
repositories leave in `/etc/apt/sources.list.d` (`rm /etc/apt/sources.list.d/cuda.list`, `nvidia-ml.list`).

Why: the repository exists to install CUDA's packages (PY052 reports those), which an AMD machine does not use; a
`rocm/*` base image (PY050) has no such list, so the `rm` of one fails and stops the build, and the keys and
keyring are dead weight. ROCm's packages come from AMD's own apt repository (ROCm's installation guide gives its
keyring and list) or ship in the `rocm/*` image already.

No fix: the lines often belong to a longer `RUN` whose other commands stay; remove them with the CUDA packages.
"""
from __future__ import annotations

import re

from migrate.deploy.context import walk
from migrate.deploy.shell_commands import pieces, text
from migrate.model import Severity
from migrate.rule import DeployRule, Invalid, Valid

URL = re.compile(r"https?://developer\.download\.nvidia\.com/compute/(cuda|machine-learning)/repos/\S*")
LIST = re.compile(r"/etc/apt/sources\.list\.d/(cuda|nvidia)[\w.-]*\.list")
KEYRING = re.compile(r"(\S*/)?cuda-keyring[\w.+~-]*\.deb")
WHAT = {URL: "a URL of NVIDIA's CUDA package repository", LIST: "the apt list of NVIDIA's CUDA package repository",
        KEYRING: "the keyring of NVIDIA's CUDA package repository"}


class NvidiaAptRepository(DeployRule):
    code = "PY070"
    severity = Severity.WARNING
    fixable = False
    file_kinds = ("docker", "shell", "yaml")
    example_path = "Dockerfile"
    examples = [
        Invalid("FROM pytorch/pytorch:1.8.1-cuda10.2-cudnn7-devel\n"
                "RUN rm /etc/apt/sources.list.d/cuda.list \\\n"
                "    && apt-key adv --fetch-keys https://developer.download.nvidia.com/compute/cuda/repos/ubuntu1804/"
                "x86_64/3bf863cc.pub\n", line=2,
                message="/etc/apt/sources.list.d/cuda.list is the apt list of NVIDIA's CUDA package repository, which "
                        "an AMD machine does not need and a rocm/* image does not have (removing it fails there): "
                        "take ROCm's packages from AMD's repository or a rocm/* image"),
        Invalid("#!/bin/bash\ncurl -fsSLO https://developer.download.nvidia.com/compute/cuda/repos/ubuntu2404/x86_64/"
                "cuda-keyring_1.1-1_all.deb\ndpkg -i cuda-keyring_1.1-1_all.deb\nrm cuda-keyring_1.1-1_all.deb\n",
                path="install_nccl.sh", line=2),
        Invalid("jobs:\n  b:\n    steps:\n      - run: sudo dpkg -i cuda-keyring_1.1-1_all.deb\n",
                path=".github/workflows/b.yml", line=4),
        Valid("FROM rocm/dev-ubuntu-22.04:6.4.1\nRUN rm -rf /var/lib/apt/lists/*\n"
              "# keys once came from https://developer.download.nvidia.com/compute/cuda/repos/\n"),
        Valid("#!/bin/sh\necho 'see https://developer.download.nvidia.com/compute/cuda/repos/ for CUDA'\n",
              path="notes.sh"),
    ]

    def check(self, ctx):
        if b"nvidia" not in ctx.data and b"cuda-keyring" not in ctx.data:
            return
        for root, shell in pieces(ctx, b""):
            for command in walk(root, "command"):
                name = command.child_by_field_name("name")
                program = text(shell, name).rsplit("/", 1)[-1] if name is not None else ""
                if program in ("", "echo", "printf"):
                    continue  # a message about the repository, not a use of it
                for word in command.children_by_field_name("argument"):
                    value = text(shell, word).strip("\"'")
                    pattern = next((p for p in WHAT if p.fullmatch(value)), None)
                    if pattern is None or pattern is KEYRING and program == "rm":
                        continue  # removing the downloaded keyring package is only tidying up
                    start = shell.at(word.start_byte)
                    yield self.finding(ctx, start, shell.at(word.end_byte),
                                       f"{value} is {WHAT[pattern]}, which an AMD machine does not need and a rocm/* "
                                       "image does not have (removing it fails there): take ROCm's packages from "
                                       "AMD's repository or a rocm/* image")
