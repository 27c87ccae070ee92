"""`TORCH_CUDA_ARCH_LIST` set, unset or read, in Python, shell scripts, `.env` files, Dockerfiles and YAML.

`TORCH_CUDA_ARCH_LIST` holds NVIDIA compute capabilities (`"8.0;8.6+PTX"`, `"7.5 8.0"`) for the CUDA extensions
PyTorch builds. On ROCm, `torch.utils.cpp_extension` does not read it: its `_get_rocm_arch_flags` takes the AMD
targets from `PYTORCH_ROCM_ARCH` (gfx names separated by `;`, spaces also accepted) and, when that is unset, builds
for every visible GPU (torch 2.13; older releases took the targets torch itself was built for). So a setting becomes `PYTORCH_ROCM_ARCH` with the AMD targets of hipmigrate's
`--offload-arch` (by default `gfx942` for HIP 6 and later, `gfx90a;gfx940` for HIP 5) joined with `;`; a bare shell or Dockerfile word gets double quotes, since
`;` ends a shell command. An empty setting is only renamed, and so is an unset.

Reads are reported, not renamed: code that reads `TORCH_CUDA_ARCH_LIST` expects compute capabilities (it splits
`8.0`, compares major versions, builds `-gencode` flags), and gfx names would break it. Except in a shell script,
Dockerfile or YAML file that sets the variable itself, where each setting is literal or passes the variable on
(`ARG TORCH_CUDA_ARCH_LIST` then `ENV TORCH_CUDA_ARCH_LIST="${TORCH_CUDA_ARCH_LIST}"`, `export
TORCH_CUDA_ARCH_LIST="${TORCH_CUDA_ARCH_LIST:-8.0}"`): there every setting and every `$TORCH_CUDA_ARCH_LIST` is
renamed together, so none is left pointing at a variable nothing sets (an `ARG` without default gets the targets as
its default; callers' `--build-arg` must then name `PYTORCH_ROCM_ARCH`). A setting that passes on another
variable whole (`ARG CUDA_ARCH=""` then `ENV TORCH_CUDA_ARCH_LIST=${CUDA_ARCH}`), which the file sets only to
literals before it and reads nowhere else, is renamed and that variable's literal values become the targets (an
empty one stays empty). Any other value built at run time is reported for a hand edit. A file that already sets `PYTORCH_ROCM_ARCH` keeps its `TORCH_CUDA_ARCH_LIST` (noted).

Fix safety: SAFE; the extension is then built for the targets hipmigrate was given (check them against your GPUs).
"""
from __future__ import annotations

import re

from migrate.deploy.env import rule_sites
from migrate.deploy.env_edits import rename, taken, written
from migrate.deploy.env_flow import origin, read_only_by, rest
from migrate.deploy.env_site import Access
from migrate.model import Edit, Severity
from migrate.rule import EnvRule, Invalid, Valid

SOURCE = "TORCH_CUDA_ARCH_LIST"
TARGET = "PYTORCH_ROCM_ARCH"


class TorchCudaArchListVariable(EnvRule):
    code = "PY021"
    example_path = "build.py"
    examples = [
        Valid('import os\nos.environ["PYTORCH_ROCM_ARCH"] = "gfx90a;gfx940"\n'),
        Valid("export PYTORCH_ROCM_ARCH=gfx942\npip install .\n", path="build.sh"),
        Invalid('import os\n\nos.environ["TORCH_CUDA_ARCH_LIST"] = "8.0;8.6+PTX"\n',
                fixed='import os\n\nos.environ["PYTORCH_ROCM_ARCH"] = "gfx942"\n', line=3,
                message="TORCH_CUDA_ARCH_LIST names NVIDIA compute capabilities (8.0;8.6+PTX): PyTorch on ROCm builds "
                        "extensions for the AMD targets in PYTORCH_ROCM_ARCH (gfx942)"),
        Invalid("export TORCH_CUDA_ARCH_LIST=8.0\nTORCH_CUDA_ARCH_LIST='7.5 8.0' pip install -e .\n",
                fixed='export PYTORCH_ROCM_ARCH=gfx942\n'
                      'PYTORCH_ROCM_ARCH=\'gfx942\' pip install -e .\n',
                line=1, path="build.sh"),
        Invalid("FROM rocm/pytorch:latest\nARG TORCH_CUDA_ARCH_LIST=8.0\nENV TORCH_CUDA_ARCH_LIST 9.0\n",
                fixed="FROM rocm/pytorch:latest\nARG PYTORCH_ROCM_ARCH=gfx942\nENV PYTORCH_ROCM_ARCH gfx942\n",
                line=2, options=(("offload_arch", ("gfx942",)),), path="Dockerfile"),
        Invalid("FROM rocm/pytorch:latest\nARG TORCH_CUDA_ARCH_LIST=\"8.0;8.6;9.0\"\n"
                "ENV TORCH_CUDA_ARCH_LIST=\"${TORCH_CUDA_ARCH_LIST}\"\n"
                "RUN echo \"building for $TORCH_CUDA_ARCH_LIST\" && pip install -e .\n",
                fixed="FROM rocm/pytorch:latest\nARG PYTORCH_ROCM_ARCH=\"gfx942\"\n"
                      "ENV PYTORCH_ROCM_ARCH=\"${PYTORCH_ROCM_ARCH}\"\n"
                      "RUN echo \"building for $PYTORCH_ROCM_ARCH\" && pip install -e .\n",
                path="Dockerfile", line=2),
        Invalid("ARG TORCH_CUDA_ARCH_LIST\nFROM rocm/pytorch:latest\nARG TORCH_CUDA_ARCH_LIST\n"
                "ENV TORCH_CUDA_ARCH_LIST=${TORCH_CUDA_ARCH_LIST}\n",
                fixed="ARG PYTORCH_ROCM_ARCH=gfx942\nFROM rocm/pytorch:latest\nARG PYTORCH_ROCM_ARCH=gfx942\n"
                      "ENV PYTORCH_ROCM_ARCH=${PYTORCH_ROCM_ARCH}\n", path="Dockerfile", line=1,
                message="build argument TORCH_CUDA_ARCH_LIST (NVIDIA compute capabilities) becomes "
                        "PYTORCH_ROCM_ARCH=gfx942 with the variables that pass it on; a docker build --build-arg "
                        "TORCH_CUDA_ARCH_LIST=... must now pass PYTORCH_ROCM_ARCH"),
        Invalid("#!/bin/bash\nexport TORCH_CUDA_ARCH_LIST=\"${TORCH_CUDA_ARCH_LIST:-8.0;9.0}\"\n"
                "echo \"arch list: ${TORCH_CUDA_ARCH_LIST}\"\npip install --no-build-isolation -e .\n",
                fixed="#!/bin/bash\nexport PYTORCH_ROCM_ARCH=\"${PYTORCH_ROCM_ARCH:-gfx942}\"\n"
                      "echo \"arch list: ${PYTORCH_ROCM_ARCH}\"\npip install --no-build-isolation -e .\n",
                path="build.sh", line=2),
        Invalid("#!/bin/bash\nexport TORCH_CUDA_ARCH_LIST=\"$(python detect_arch.py)\"\necho $TORCH_CUDA_ARCH_LIST\n",
                path="build.sh", line=2),  # built from something else: reported, not renamed
        Invalid("services:\n  build:\n    environment:\n      TORCH_CUDA_ARCH_LIST: \"8.0 9.0\"\n",
                fixed="services:\n  build:\n    environment:\n      PYTORCH_ROCM_ARCH: \"gfx942\"\n",
                line=4, path="compose.yaml"),
        Invalid('FROM rocm/pytorch:latest\n'
                'CMD ["bash", "-c", "TORCH_CUDA_ARCH_LIST=8.0 pip install -e . && python serve.py"]\n',
                fixed='FROM rocm/pytorch:latest\n'
                      'CMD ["bash", "-c", "PYTORCH_ROCM_ARCH=gfx942 pip install -e . && python serve.py"]\n',
                line=2, path="Dockerfile"),
        Invalid("apiVersion: v1\nkind: Secret\nmetadata:\n  name: build\ntype: Opaque\nstringData:\n"
                "  TORCH_CUDA_ARCH_LIST: '8.0;9.0'  # for the extension build\n",
                fixed="apiVersion: v1\nkind: Secret\nmetadata:\n  name: build\ntype: Opaque\nstringData:\n"
                      "  PYTORCH_ROCM_ARCH: 'gfx942'  # for the extension build\n",
                line=7, path="secret.yaml"),
        Invalid('import os\narchs = os.environ.get("TORCH_CUDA_ARCH_LIST", "8.0").split(";")\n', line=2,
                message="reads TORCH_CUDA_ARCH_LIST, which PyTorch on ROCm ignores: its targets are gfx names in "
                        "PYTORCH_ROCM_ARCH, not compute capabilities; adapt this code by hand"),
        # a CI expression the shell grammar cannot read is a value set at run time, not an empty one (found on
        # xformers' workflows: only renamed, it handed PYTORCH_ROCM_ARCH a compute capability)
        Invalid("jobs:\n  build:\n    steps:\n      - run: TORCH_CUDA_ARCH_LIST=${{ matrix.sm }} pip install -e .\n",
                path=".github/workflows/build.yml", line=4),
        # ... and so is a YAML value the CI system fills in (xformers' wheels workflow: it was taken for a literal)
        Invalid("env:\n  TORCH_CUDA_ARCH_LIST: ${{ inputs.cuda && '8.0 9.0' || '' }}\njobs:\n  b:\n    steps:\n"
                "      - run: echo \"$TORCH_CUDA_ARCH_LIST\"\n", path=".github/workflows/wheels.yml", line=2),
        # the value passed on from a variable the file sets only to literals and reads nowhere else (mmcv's dev
        # Dockerfile: ARG CUDA_ARCH="" then ENV TORCH_CUDA_ARCH_LIST=${CUDA_ARCH}): renamed, the literals retargeted
        Invalid('FROM rocm/pytorch:latest\nARG CUDA_ARCH=""\nENV TORCH_CUDA_ARCH_LIST=${CUDA_ARCH}\nRUN pip install -e .\n',
                fixed='FROM rocm/pytorch:latest\nARG CUDA_ARCH=""\nENV PYTORCH_ROCM_ARCH=${CUDA_ARCH}\nRUN pip install -e .\n',
                path="Dockerfile", line=3,
                message="TORCH_CUDA_ARCH_LIST takes its value from CUDA_ARCH (set in this file to '', read nowhere "
                        "else): it becomes PYTORCH_ROCM_ARCH and CUDA_ARCH stays empty; a --build-arg or setting of "
                        "CUDA_ARCH from outside must now give gfx names"),
        Invalid('#!/bin/bash\nARCHS="8.0;9.0"\nexport TORCH_CUDA_ARCH_LIST="$ARCHS"\npip install -e .\n',
                fixed='#!/bin/bash\nARCHS="gfx942"\nexport PYTORCH_ROCM_ARCH="$ARCHS"\npip install -e .\n',
                path="build.sh", line=3),
        # ... but not one read elsewhere too: retargeting it would change the other use
        Invalid('#!/bin/bash\nARCHS="8.0;9.0"\nexport TORCH_CUDA_ARCH_LIST="$ARCHS"\ncmake -DARCHS="$ARCHS" .\n',
                path="build.sh", line=3),
    ]

    def check(self, ctx):
        sites = rule_sites(ctx)
        targets = ";".join(ctx.targets)
        together = self._together(ctx, sites)
        for site in sites:
            if site.name != SOURCE:
                continue
            if together and site.access is Access.READ:
                if _arg_without_default(ctx, site):
                    yield self.finding(ctx, site.start, site.end, f"build argument {SOURCE} (NVIDIA compute "
                                       f"capabilities) becomes {TARGET}={targets} with the variables that pass it on; "
                                       f"a docker build --build-arg {SOURCE}=... must now pass {TARGET}",
                                       edits=[Edit(site.start, site.end, f"{TARGET}={targets}")],
                                       title=f"Declare {TARGET}")
                else:
                    yield self.finding(ctx, site.start, site.end, f"reads {SOURCE}, which this file sets and renames "
                                       f"to {TARGET}: read {TARGET}", edits=rename(site, TARGET, targets),
                                       title=f"Read {TARGET}")
                continue
            if together and site.access is Access.SET and site.value is None:
                yield self.finding(ctx, site.start, site.end, f"{SOURCE} passes itself on ({rest(ctx, site).strip()}): "
                                   f"it becomes {TARGET}, renamed in this file with every setting and use",
                                   edits=rename(site, TARGET), title=f"Use {TARGET}")
                continue
            if site.access is Access.READ:
                yield self.finding(ctx, site.start, site.end, f"reads {SOURCE}, which PyTorch on ROCm ignores: its "
                                   f"targets are gfx names in {TARGET}, not compute capabilities; adapt this code by "
                                   "hand", severity=Severity.WARNING)
            elif site.access is Access.UNSET:
                yield self.finding(ctx, site.start, site.end, f"unsets {SOURCE}, which PyTorch on ROCm does not read: "
                                   f"its counterpart is {TARGET}", edits=rename(site, TARGET), title=f"Unset {TARGET}")
            elif taken(sites, site, TARGET):
                yield self.finding(ctx, site.start, site.end, f"{SOURCE} is ignored by PyTorch on ROCm; this file "
                                   f"also sets {TARGET}, so it is left as it is")
            elif site.value is None and (found := origin(ctx, sites, site)) and found.name != TARGET \
                    and read_only_by(ctx, found, site):
                yield self._from_variable(ctx, site, found.settings, targets)
            elif site.value is None:
                yield self.finding(ctx, site.start, site.end, f"{SOURCE} set at run time: PyTorch on ROCm reads the "
                                   f"AMD targets from {TARGET} ({targets}); set it by hand", severity=Severity.WARNING)
            elif not site.value.strip():
                yield self.finding(ctx, site.start, site.end, f"{SOURCE} is ignored by PyTorch on ROCm: its "
                                   f"counterpart is {TARGET}", edits=rename(site, TARGET), title=f"Use {TARGET}")
            else:
                yield self.finding(ctx, site.start, site.end, f"{SOURCE} names NVIDIA compute capabilities "
                                   f"({site.value}): PyTorch on ROCm builds extensions for the AMD targets in {TARGET} "
                                   f"({targets})", edits=rename(site, TARGET, targets), title=f"Set {TARGET}={targets}")

    def _from_variable(self, ctx, site, settings: list, targets: str):
        """`ENV TORCH_CUDA_ARCH_LIST=${CUDA_ARCH}` where the file sets CUDA_ARCH only by literals and reads it only
        here: renamed, and CUDA_ARCH's literal values become the targets (an empty one stays empty)."""
        variable = settings[0].name
        values = ", ".join(repr(s.value) for s in settings)
        edits = [Edit(site.start, site.end, TARGET)]
        for setting in settings:
            if setting.value.strip():
                edits.append(Edit(setting.value_start, setting.value_end, written(setting, targets)))
        held = f"{variable} holds the AMD targets ({targets})" if len(edits) > 1 else f"{variable} stays empty"
        return self.finding(ctx, site.start, site.end, f"{SOURCE} takes its value from {variable} (set in this file "
                            f"to {values}, read nowhere else): it becomes {TARGET} and {held}; a --build-arg or "
                            f"setting of {variable} from outside must now give gfx names", edits=edits,
                            title=f"Use {TARGET}")

    @staticmethod
    def _together(ctx, sites) -> bool:
        """Whether every setting and use of the variable in this shell script, Dockerfile or YAML file can be renamed
        together: the file sets it, each setting is literal or passes the variable itself on (`ENV
        TORCH_CUDA_ARCH_LIST="${TORCH_CUDA_ARCH_LIST}"` after an `ARG`), and nothing sets the target already."""
        if ctx.kind not in ("shell", "docker", "yaml"):
            return False
        mine = [s for s in sites if s.name == SOURCE]
        sets = [s for s in mine if s.access is Access.SET]
        if not sets and not any(_arg_without_default(ctx, s) for s in mine):
            return False
        if any(s.access is Access.SET and s.name == TARGET for s in sites):
            return False
        reads = [s for s in mine if s.access is Access.READ]
        if any(s.syntax == "python" for s in reads):
            return False
        return all(s.value is not None or SELF.fullmatch(rest(ctx, s)) for s in sets)


SELF = re.compile(r"\s*=?\s*([\"']?)\$\{?" + SOURCE + r"(?::?-[^}\"']*)?\}?\1\s*(?:#.*)?")


def _arg_without_default(ctx, site) -> bool:
    """`ARG TORCH_CUDA_ARCH_LIST` (a build argument without default: the site is a read of --build-arg)."""
    if site.syntax != "docker" or site.access is not Access.READ:
        return False
    start = ctx.data.rfind(b"\n", 0, site.start) + 1
    return ctx.data[start:site.start].strip().upper() == b"ARG" and not rest(ctx, site).strip()
