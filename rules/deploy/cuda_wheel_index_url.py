"""A package index or find-links URL that names PyTorch's CUDA wheels (`--index-url .../whl/cu121`,
`--extra-index-url .../cu118`, `-f .../cu124`, `-f .../whl/cu111/torch_stable.html`, a `[[tool.uv.index]]`/`[[tool.poetry.source]]` `url`, `[tool.uv]`
`index-url`/`extra-index-url`) in a requirements file or pyproject.toml, in the `- pip:` sub-list of a conda
environment file, or in a `pip install` command of a shell script or a Dockerfile's `RUN`/`CMD`/`ENTRYPOINT`,
`sh -c` exec form included (migrate/deploy/pip_commands.py); also such a URL kept in a variable that pip commands read later
(`PYTORCH_INDEX: .../whl/cu128` in a workflow's `env:`, `ENV PIP_EXTRA_INDEX_URL=...`, `TORCH_INDEX=...` in a script or
a `.env` file).

Why: those indexes hold torch, torchvision and torchaudio built against CUDA; on an AMD GPU `torch.cuda.is_available()`
is False with them. PyTorch publishes the ROCm builds on sibling indexes named after the ROCm version
(`.../whl/rocm6.0`), one or two per torch release.

Fix (safe): the last path segment (`cu121`) becomes the ROCm tag of the torch release pinned in the same file
(`torch==2.3.0` → `rocm6.0`; torchvision or torchaudio pins count too): the pin of the same `pip install` command
(or requirements line) first, so a Dockerfile that installs `torch==2.3.1` and later `torch==2.5.1 --index-url
.../cu124` gets the 2.5 tag there; or of the newest release hipmigrate knows when nothing is pinned; every other byte of the URL stays (a mirror keeps its host). The table of tags and the
pages it comes from are in `migrate/deploy/rocm_wheels.py`. A pinned release the table does not know is reported
without a fix: pick the ROCm tag PyTorch publishes for it by hand.
"""
from __future__ import annotations

import re

from migrate.deploy.dependencies import dependencies, pinned_torch
from migrate.deploy.env import env_sites
from migrate.deploy.env_site import Access
from migrate.deploy.requirement import IndexUrl
from migrate.deploy.rocm_wheels import NEWEST_TAG, TORCH_FAMILY, cuda_segment, rocm_tag
from migrate.python.index import index, string_value
from migrate.model import Edit, Severity
from migrate.rule import DeployRule, Invalid, Valid


CUDA_URL = re.compile(rb"/cu\d{2,3}(?:/|\b)")
INDEX_VARIABLE = re.compile(r"(?i)index|pip|wheel|whl|torch|find_links|url")


def release_text(release: tuple[int, int, int] | None) -> str:
    return "no pinned torch release (the newest known)" if release is None else "torch " + ".".join(map(str, release))


class CudaWheelIndexUrl(DeployRule):
    code = "PY040"
    severity = Severity.INFO
    file_kinds = ("requirements", "pyproject", "shell", "docker", "yaml", "dotenv", "python")
    example_path = "requirements.txt"
    examples = [
        Valid("--index-url https://wheels.example.org/whl/rocm6.0\ntorch==2.3.0\n"),
        Valid("--extra-index-url https://wheels.example.org/whl/cu121/extras\nnumpy\n"),
        Valid("[[tool.uv.index]]\nname = \"cuda\"\nurl = \"https://wheels.example.org/whl/cpu\"\n",
              path="pyproject.toml"),
        Invalid("FROM python:3.11\nRUN pip install torch==2.3.1 --index-url https://wheels.example.org/whl/cu121\n",
                fixed="FROM python:3.11\nRUN pip install torch==2.3.1 --index-url https://wheels.example.org/whl/rocm6.0\n",
                path="Dockerfile", line=2),
        Invalid('FROM python:3.11\n'
                'CMD ["bash", "-ec", "pip install --index-url https://wheels.example.org/whl/cu124 torch && '
                'python app.py"]\n',
                fixed='FROM python:3.11\nCMD ["bash", "-ec", '
                      '"pip install --index-url https://wheels.example.org/whl/rocm7.1 torch && python app.py"]\n',
                path="Dockerfile", line=2),
        Invalid("--index-url https://wheels.example.org/whl/cu121\ntorch==2.3.0\n",
                fixed="--index-url https://wheels.example.org/whl/rocm6.0\ntorch==2.3.0\n", line=1,
                message="https://wheels.example.org/whl/cu121 is PyTorch's CUDA wheel index: AMD GPUs need the ROCm "
                        "build, published on the rocm6.0 index for torch 2.3.0"),
        Invalid("FROM python:3.9\nRUN pip install torch==1.13.1+cu117 torchvision==0.14.1+cu117 \\\n"
                "    -f https://download.pytorch.org/whl/cu117/torch_stable.html\n",
                fixed="FROM python:3.9\nRUN pip install torch==1.13.1+cu117 torchvision==0.14.1+cu117 \\\n"
                      "    -f https://download.pytorch.org/whl/rocm5.2/torch_stable.html\n", path="Dockerfile", line=3),
        Invalid("jobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n"
                "      - run: pip install torch==1.9.0+cu111 -f https://download.pytorch.org/whl/cu111/torch_stable.html\n",
                path=".github/workflows/test.yml", line=5,
                message="https://download.pytorch.org/whl/cu111/torch_stable.html is PyTorch's CUDA wheel index: AMD "
                        "GPUs need the ROCm build, but hipmigrate does not know which ROCm version torch 1.9.0 is "
                        "published for: replace cu111 with that release's rocm tag by hand"),
        Valid("torch==2.3.0\n-f https://download.pytorch.org/whl/torch_stable.html\n"),
        Invalid("on: [push]\nenv:\n  PYTORCH_INDEX: https://download.pytorch.org/whl/cu128\njobs:\n  test:\n"
                "    runs-on: ubuntu-latest\n    steps:\n      - run: pip install torch --index-url $PYTORCH_INDEX\n",
                fixed="on: [push]\nenv:\n  PYTORCH_INDEX: https://download.pytorch.org/whl/rocm7.1\njobs:\n  test:\n"
                      "    runs-on: ubuntu-latest\n    steps:\n      - run: pip install torch --index-url $PYTORCH_INDEX\n",
                path=".github/workflows/test.yml", line=3),
        Invalid("FROM python:3.11\nENV PIP_EXTRA_INDEX_URL=\"https://download.pytorch.org/whl/cu121\"\n"
                "RUN pip install torch==2.3.1\n",
                fixed="FROM python:3.11\nENV PIP_EXTRA_INDEX_URL=\"https://download.pytorch.org/whl/rocm6.0\"\n"
                      "RUN pip install torch==2.3.1\n", path="Dockerfile"),
        Invalid("channels: [conda-forge]\ndependencies:\n  - python=3.11\n  - pip:\n      - torch==2.3.1\n"
                "      - --extra-index-url https://wheels.example.org/whl/cu121\n",
                fixed="channels: [conda-forge]\ndependencies:\n  - python=3.11\n  - pip:\n      - torch==2.3.1\n"
                      "      - --extra-index-url https://wheels.example.org/whl/rocm6.0\n", path="environment.yml", line=6),
        Valid("CUDA_REPO=https://developer.download.nvidia.com/compute/cuda/repos/cu121\n", path=".env"),
        Invalid("-f https://wheels.example.org/whl/cu118/\ntorchvision==0.19.1\n",
                fixed="-f https://wheels.example.org/whl/rocm6.1/\ntorchvision==0.19.1\n", line=1),
        Invalid("--extra-index-url=https://mirror.example.org/pytorch/cu124\nnumpy\n",
                fixed="--extra-index-url=https://mirror.example.org/pytorch/rocm7.1\nnumpy\n"),
        Invalid("[project]\ndependencies = [\"torch\"]\n\n[[tool.uv.index]]\nname = \"pytorch-cu124\"\n"
                "url = \"https://wheels.example.org/whl/cu124\"\nexplicit = true\n",
                fixed="[project]\ndependencies = [\"torch\"]\n\n[[tool.uv.index]]\nname = \"pytorch-cu124\"\n"
                      "url = \"https://wheels.example.org/whl/rocm7.1\"\nexplicit = true\n",
                line=6, path="pyproject.toml",
                message="https://wheels.example.org/whl/cu124 is PyTorch's CUDA wheel index: AMD GPUs need the ROCm "
                        "build, published on the rocm7.1 index for the newest torch release hipmigrate knows"),
        Invalid("FROM python:3.11\nRUN pip install torch==2.3.1 numpy\n"
                "RUN pip install torch==2.5.1 --index-url https://wheels.example.org/whl/cu124\n",
                fixed="FROM python:3.11\nRUN pip install torch==2.3.1 numpy\n"
                      "RUN pip install torch==2.5.1 --index-url https://wheels.example.org/whl/rocm6.2\n",
                path="Dockerfile", line=3),
        Invalid("#!/bin/sh\npip install torchvision==0.20.1 --index-url https://wheels.example.org/whl/cu124\n"
                "pip install torch==2.3.1 -i https://wheels.example.org/whl/cu121\n",
                fixed="#!/bin/sh\npip install torchvision==0.20.1 --index-url https://wheels.example.org/whl/rocm6.2\n"
                      "pip install torch==2.3.1 -i https://wheels.example.org/whl/rocm6.0\n", path="install.sh"),
        # per-line options (tree-sitter-requirements rejects them; the file is read through a copy)
        Invalid("numpy>=1.24\ntorch==2.3.0 --index-url https://wheels.example.org/whl/cu121\n"
                "torchvision==0.19.1 --extra-index-url https://wheels.example.org/whl/cu121\n",
                fixed="numpy>=1.24\ntorch==2.3.0 --index-url https://wheels.example.org/whl/rocm6.0\n"
                      "torchvision==0.19.1 --extra-index-url https://wheels.example.org/whl/rocm6.1\n", line=2),
        Invalid("--index-url https://wheels.example.org/whl/cu126\ntorch==2.99.0\n", line=1,
                message="https://wheels.example.org/whl/cu126 is PyTorch's CUDA wheel index: AMD GPUs need the ROCm "
                        "build, but hipmigrate does not know which ROCm version torch 2.99.0 is published for: "
                        "replace cu126 with that release's rocm tag by hand"),
        # in Python, the index an install helper passes to pip: reported (the code says which torch it installs)
        Invalid('import subprocess\nimport sys\n\nsubprocess.check_call([sys.executable, "-m", "pip", "install", '
                '"torch", "--index-url",\n                       "https://wheels.example.org/whl/cu121"])\n',
                path="install_deps.py", line=5,
                message="https://wheels.example.org/whl/cu121 is PyTorch's CUDA wheel index: AMD GPUs need the ROCm "
                        "build, on the rocm index of the torch release this code installs (rocm7.1 for the newest "
                        "one hipmigrate knows): change it by hand"),
        Valid('URL = "https://wheels.example.org/whl/cu121/extras/readme.txt"\nprint("see /whl/cu121")\n',
              path="notes.py"),
    ]

    def check(self, ctx):
        if ctx.kind == "python":
            yield from self._python(ctx)
            return
        deps, urls = dependencies(ctx) if ctx.kind != "dotenv" else ([], [])
        urls = [*urls, *self._variables(ctx)]
        for url in urls:
            where = cuda_segment(url.url)
            if where is None:
                continue
            release = pinned_torch(deps, url.group)  # the pin of the same pip command or line first
            tag = rocm_tag(release)
            start = url.start + len(url.url[:where[0]].encode("utf-8", "surrogateescape"))
            end = url.start + len(url.url[:where[1]].encode("utf-8", "surrogateescape"))
            cuda = url.url[where[0]:where[1]]
            head = f"{url.url} is PyTorch's CUDA wheel index: AMD GPUs need the ROCm build"
            if tag is None:
                yield self.finding(ctx, url.start, url.end, f"{head}, but hipmigrate does not know which ROCm version "
                                   f"{release_text(release)} is published for: replace {cuda} with that release's "
                                   "rocm tag by hand", severity=Severity.WARNING)
                continue
            which = f"for {release_text(release)}" if release else "for the newest torch release hipmigrate knows"
            if release is None and any(d.key in TORCH_FAMILY and d.versions for d in deps):
                which += " (check that it holds a release within the file's torch range)"
            yield self.finding(ctx, url.start, url.end, f"{head}, published on the {tag} index {which}",
                               edits=[Edit(start, end, tag)], title=f"Use the {tag} wheel index")

    def _python(self, ctx):
        """A CUDA wheel index written as a Python string (`subprocess.check_call([..., "--index-url", URL])`, an
        install helper's constant): reported, since which torch it installs is the code's to say."""
        if not CUDA_URL.search(ctx.data) or ctx.wrapper is None:
            return
        for node in index(ctx).strings:
            value = string_value(node)
            if value is None or not value.startswith(("http://", "https://")) or cuda_segment(value) is None:
                continue
            start, end = ctx.byte_span(node)
            yield self.finding(ctx, start, end, f"{value} is PyTorch's CUDA wheel index: AMD GPUs need the ROCm build, "
                               f"on the rocm index of the torch release this code installs ({NEWEST_TAG} for the "
                               "newest one hipmigrate knows): change it by hand", severity=Severity.WARNING)

    @staticmethod
    def _variables(ctx) -> list[IndexUrl]:
        """Index URLs kept in variables (`PYTORCH_INDEX: .../whl/cu128` in a workflow's `env:`, `ENV
        PIP_EXTRA_INDEX_URL=...`, `TORCH_INDEX=...` in a script) that a pip command reads later."""
        if not CUDA_URL.search(ctx.data):
            return []
        found = []
        for site in env_sites(ctx):
            if site.access is not Access.SET or not site.literal or not INDEX_VARIABLE.search(site.name):
                continue
            if cuda_segment(site.value) is None or ctx.text(site.value_start, site.value_end) != site.value:
                continue
            found.append(IndexUrl(site.value, site.value_start, site.value_end))
        return found
