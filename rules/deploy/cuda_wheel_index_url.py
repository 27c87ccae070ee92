"""A package index or find-links URL that names PyTorch's CUDA wheels (`--index-url .../whl/cu121`,
`--extra-index-url .../cu118`, `-f .../cu124`, a `[[tool.uv.index]]`/`[[tool.poetry.source]]` `url`, `[tool.uv]`
`index-url`/`extra-index-url`) in a requirements file or pyproject.toml, or in a `pip install` command of a
shell script or a Dockerfile's `RUN`/`CMD`/`ENTRYPOINT`, `sh -c` exec form included
(migrate/deploy/pip_commands.py).

Why: those indexes hold torch, torchvision and torchaudio built against CUDA; on an AMD GPU `torch.cuda.is_available()`
is False with them. PyTorch publishes the ROCm builds on sibling indexes named after the ROCm version
(`.../whl/rocm6.0`), one or two per torch release.

Fix (safe): the last path segment (`cu121`) becomes the ROCm tag of the torch release pinned in the same file
(`torch==2.3.0` → `rocm6.0`; torchvision or torchaudio pins count too), or of the newest release hipmigrate knows
when nothing is pinned; every other byte of the URL stays (a mirror keeps its host). The table of tags and the
pages it comes from are in `migrate/deploy/rocm_wheels.py`. A pinned release the table does not know is reported
without a fix: pick the ROCm tag PyTorch publishes for it by hand.
"""
from __future__ import annotations

from migrate.deploy.dependencies import dependencies, pinned_torch
from migrate.deploy.rocm_wheels import TORCH_FAMILY, cuda_segment, rocm_tag
from migrate.model import Edit, RuleKind, Severity
from migrate.rule import FileRule, Invalid, Valid


def release_text(release: tuple[int, int, int] | None) -> str:
    return "no pinned torch release (the newest known)" if release is None else "torch " + ".".join(map(str, release))


class CudaWheelIndexUrl(FileRule):
    code = "PY040"
    kind = RuleKind.PYTHON
    severity = Severity.INFO
    file_kinds = ("requirements", "pyproject", "shell", "docker", "yaml")
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
        Invalid("--index-url https://wheels.example.org/whl/cu126\ntorch==2.99.0\n", line=1,
                message="https://wheels.example.org/whl/cu126 is PyTorch's CUDA wheel index: AMD GPUs need the ROCm "
                        "build, but hipmigrate does not know which ROCm version torch 2.99.0 is published for: "
                        "replace cu126 with that release's rocm tag by hand"),
    ]

    def check(self, ctx):
        deps, urls = dependencies(ctx)
        release = pinned_torch(deps)
        tag = rocm_tag(release)
        for url in urls:
            where = cuda_segment(url.url)
            if where is None:
                continue
            start = url.start + len(url.url[:where[0]].encode())
            end = url.start + len(url.url[:where[1]].encode())
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
