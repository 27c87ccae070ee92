"""`CUDA_HOME`, `CUDA_PATH`, `CUDA_ROOT` or `CUDA_TOOLKIT_ROOT_DIR` set, unset or read, in Python, shell scripts, `.env` files,
Dockerfiles and YAML.

These name the CUDA toolkit's root. On ROCm the toolkit root is `ROCM_PATH` (default `/opt/rocm`): hipcc and
hipconfig read it, and PyTorch's `torch.utils.cpp_extension` finds ROCm through `ROCM_HOME` or `ROCM_PATH` (then
hipcc on PATH, then `/opt/rocm`) and never reads `CUDA_HOME` there. So every site is renamed to `ROCM_PATH`, reads
included, so that a script that sets the variable and then uses `$CUDA_HOME/...` keeps reading what it set. A value
(or a read's default, `${CUDA_HOME:-/usr/local/cuda}`, `os.environ.get("CUDA_HOME", "/usr/local/cuda")`) that is the
CUDA toolkit's own folder (`/usr/local/cuda`, `/usr/local/cuda-12.1`) becomes `/opt/rocm`; any other value is kept.
Paths below it differ: ROCm has `lib` (no `lib64`) and `bin/hipcc` (no `bin/nvcc`): a read followed by `/lib64`
gets `/lib` (safe, with the rename), one followed by `/bin/nvcc` a WARNING with an unsafe fix to `/bin/hipcc`
(hipcc takes clang's options, not nvcc's). In Python, a path built on the read later on the same line that names
`"nvcc"`, `"lib64"` or `"cupti"` (`Path(os.getenv("CUDA_HOME")) / "bin" / "nvcc"`) gets a WARNING, no fix.

Where the file already sets `ROCM_PATH`, or set another of these names before (both become `ROCM_PATH`), a setting
is left as it is with a note, so that the variable is never set twice (a YAML map would then hold a duplicate key).

Fix safety: SAFE; only the variable's name and the CUDA toolkit folder change.
"""
from __future__ import annotations

import re

from migrate.deploy.env import rule_sites
from migrate.deploy.env_edits import rename, taken
from migrate.deploy.env_site import Access
from migrate.model import Applicability, Edit, Severity
from migrate.rule import EnvRule, Invalid, Valid

SOURCES = ("CUDA_HOME", "CUDA_PATH", "CUDA_ROOT", "CUDA_TOOLKIT_ROOT_DIR")
TARGET = "ROCM_PATH"
ROCM = "/opt/rocm"
BELOW = re.compile(rb"\}?(/lib64|/bin/nvcc)(?![\w.-])")  # right after a read's name: `$CUDA_HOME/lib64`
CUDA_FOLDER = re.compile(r"/usr/local/cuda(?:-\d+(?:\.\d+)*)?(/?)")


def rocm_value(value: str | None) -> str | None:
    """`/opt/rocm` for the CUDA toolkit's own folder (keeping a trailing slash); None for any other value."""
    match = CUDA_FOLDER.fullmatch(value or "")
    return ROCM + match.group(1) if match else None


class CudaHomeVariable(EnvRule):
    code = "PY022"
    example_path = "setup_env.py"
    examples = [
        Valid('import os\nrocm = os.environ.get("ROCM_PATH", "/opt/rocm")\n'),
        Valid("export CUDA_HOME_NOTE=1\necho CUDA_HOME\n", path="env.sh"),
        Invalid('#!/bin/sh\nexport LD_LIBRARY_PATH="${CUDA_HOME}/lib64:$LD_LIBRARY_PATH"\n$CUDA_HOME/bin/nvcc -c k.cu\n',
                fixed='#!/bin/sh\nexport LD_LIBRARY_PATH="${ROCM_PATH}/lib:$LD_LIBRARY_PATH"\n$ROCM_PATH/bin/hipcc -c k.cu\n',
                path="build.sh", line=2, options=(("unsafe_fixes", True),)),
        Invalid('import os\nfrom pathlib import Path\n\nnvcc = Path(os.getenv("CUDA_HOME", "/usr/local/cuda")) / "bin" / "nvcc"\n',
                fixed='import os\nfrom pathlib import Path\n\nnvcc = Path(os.getenv("ROCM_PATH", "/opt/rocm")) / "bin" / "nvcc"\n'),
        Invalid('import os\n\nos.environ["CUDA_HOME"] = "/usr/local/cuda-12.1"\n',
                fixed='import os\n\nos.environ["ROCM_PATH"] = "/opt/rocm"\n', line=3,
                message="CUDA_HOME points at the CUDA toolkit (/usr/local/cuda-12.1): on ROCm the toolkit root is "
                        "ROCM_PATH (/opt/rocm), which hipcc and PyTorch's cpp_extension read"),
        Invalid('import os\nnvcc = os.path.join(os.environ.get("CUDA_PATH", "/usr/local/cuda"), "bin", "nvcc")\n',
                fixed='import os\nnvcc = os.path.join(os.environ.get("ROCM_PATH", "/opt/rocm"), "bin", "nvcc")\n',
                line=2),
        Invalid('#!/bin/sh\nexport CUDA_HOME=/usr/local/cuda\nexport PATH="$CUDA_HOME/bin:$PATH"\n'
                'echo "${CUDA_HOME:-/usr/local/cuda/}"\n',
                fixed='#!/bin/sh\nexport ROCM_PATH=/opt/rocm\nexport PATH="$ROCM_PATH/bin:$PATH"\n'
                      'echo "${ROCM_PATH:-/opt/rocm/}"\n', line=2, path="env.sh"),
        Invalid("FROM ubuntu:22.04\nENV CUDA_HOME=/opt/toolkits/cuda LD_LIBRARY_PATH=${CUDA_HOME}/lib64\n",
                fixed="FROM ubuntu:22.04\nENV ROCM_PATH=/opt/toolkits/cuda LD_LIBRARY_PATH=${ROCM_PATH}/lib\n",
                line=2, path="Dockerfile"),
        Invalid("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: toolkit\ndata:\n  CUDA_HOME: /usr/local/cuda\n"
                "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: build\nspec:\n  containers:\n    - name: build\n"
                "      image: rocm/dev-ubuntu-22.04:6.4.1-complete\n      env:\n        - name: CUDA_HOME\n"
                "          valueFrom:\n            configMapKeyRef: {name: toolkit, key: CUDA_HOME}\n",
                fixed="apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: toolkit\ndata:\n  ROCM_PATH: /opt/rocm\n"
                      "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: build\nspec:\n  containers:\n"
                      "    - name: build\n      image: rocm/dev-ubuntu-22.04:6.4.1-complete\n      env:\n"
                      "        - name: ROCM_PATH\n          valueFrom:\n"
                      "            configMapKeyRef: {name: toolkit, key: ROCM_PATH}\n",
                line=6, path="k8s/build.yaml"),
        Invalid('FROM ubuntu:22.04\nENTRYPOINT ["/bin/bash", "-o", "pipefail", "-c", '
                '"export LD_LIBRARY_PATH=${CUDA_HOME}/lib64 && exec \\"$@\\"", "--"]\n',
                fixed='FROM ubuntu:22.04\nENTRYPOINT ["/bin/bash", "-o", "pipefail", "-c", '
                      '"export LD_LIBRARY_PATH=${ROCM_PATH}/lib && exec \\"$@\\"", "--"]\n',
                line=2, path="Dockerfile"),
        Invalid("jobs:\n  build:\n    env:\n      CUDA_HOME: /usr/local/cuda\n      CUDA_PATH: /usr/local/cuda\n",
                fixed="jobs:\n  build:\n    env:\n      ROCM_PATH: /opt/rocm\n      CUDA_PATH: /usr/local/cuda\n",
                line=4, path=".github/workflows/ci.yml"),
    ]

    def check(self, ctx):
        sites = rule_sites(ctx)
        for site in sites:
            if site.name not in SOURCES:
                continue
            new = rocm_value(site.value)
            edits = rename(site, TARGET, new)
            if site.access is Access.SET and taken(sites, site, TARGET, SOURCES):
                yield self.finding(ctx, site.start, site.end, f"{site.name} names the CUDA toolkit; this file also "
                                   f"sets {TARGET}, the ROCm toolkit root, so it is left as it is")
            elif site.access is Access.SET and new is not None:
                yield self.finding(ctx, site.start, site.end, f"{site.name} points at the CUDA toolkit ({site.value}): "
                                   f"on ROCm the toolkit root is {TARGET} ({new}), which hipcc and PyTorch's "
                                   "cpp_extension read", edits=edits, title=f"Set {TARGET}={new}")
            elif site.access is Access.SET:
                kept = f"; {site.value} is kept: check that it is a ROCm installation" if site.value else ""
                yield self.finding(ctx, site.start, site.end, f"{site.name} names the CUDA toolkit: on ROCm the "
                                   f"toolkit root is {TARGET}, which hipcc and PyTorch's cpp_extension read{kept}",
                                   edits=edits, title=f"Set {TARGET}")
            elif site.access is Access.UNSET:
                yield self.finding(ctx, site.start, site.end, f"unsets {site.name}: on ROCm the toolkit root is "
                                   f"{TARGET}", edits=edits, title=f"Unset {TARGET}")
            else:
                below = BELOW.match(ctx.data, site.end)
                if below and below.group(1) == b"/lib64":  # `$CUDA_HOME/lib64`: ROCm's libraries are in lib
                    edits = [*edits, Edit(below.start(1) + 1, below.end(1), "lib")]
                yield self.finding(ctx, site.start, site.end, f"reads {site.name}: on ROCm the toolkit root is "
                                   f"{TARGET} (/opt/rocm); paths below it differ (bin/hipcc, lib)", edits=edits,
                                   title=f"Read {TARGET}")
                if below and below.group(1) == b"/bin/nvcc":
                    yield self.finding(ctx, below.start(1), below.end(1), f"{site.name}/bin/nvcc: ROCm has no nvcc; "
                                       "its compiler is bin/hipcc, which takes clang's options, not nvcc's",
                                       edits=[Edit(below.start(1), below.end(1), "/bin/hipcc")], title="Use hipcc",
                                       severity=Severity.WARNING, applicability=Applicability.UNSAFE)
                elif ctx.kind == "python":
                    yield from self._python_path_below(ctx, site)

    def _python_path_below(self, ctx, site):
        """`os.path.join(os.environ["CUDA_HOME"], "bin", "nvcc")`, `Path(os.getenv("CUDA_PATH")) / "lib64"`: a
        path built on the read, later on the same line, that names what ROCm lays out otherwise (flagged only)."""
        line_end = ctx.data.find(b"\n", site.end)
        rest = ctx.data[site.end:line_end if line_end >= 0 else len(ctx.data)]
        for word, hint in ((b"nvcc", "ROCm has no nvcc: its compiler is bin/hipcc, which takes clang's options"),
                           (b"lib64", "ROCm keeps its libraries in lib, not lib64"),
                           (b"cupti", "ROCm has no CUPTI: its profiling library is rocprofiler")):
            match = re.search(rb"""(['"])%s\1""" % word, rest)
            if match:
                start = site.end + match.start()
                yield self.finding(ctx, start, start + len(match.group(0)), f"a path below {site.name} names "
                                   f"{word.decode()}: {hint}; edit the path by hand", severity=Severity.WARNING)
                return
