"""Literal paths into the CUDA toolkit: `-I/usr/local/cuda/include`, `-L/usr/local/cuda/lib64`,
`-Wl,-rpath,/usr/local/cuda-12.4/lib64`, `PATH=/opt/cuda/bin:$$PATH`.

ROCm installs its headers, libraries and tools under one root (`/opt/rocm` by default, `$ROCM_PATH`),
with libraries in `lib`, not `lib64`. `include`, `lib64`, `lib`, `bin` (and `targets/<arch>/...`,
`lib64/stubs`) map to the ROCm root's `include`, `lib` and `bin` (`targets/<arch>` to the root). The
root is written `$(ROCM_PATH)` when the Makefile defines ROCM_PATH, else `/opt/rocm`, so the result
never depends on a variable that nobody sets.

Include paths are mapped, not removed: hipcc adds ROCm's include directory itself (so the flag is
harmless there), but a host compiler (`$(CXX)`) that compiles a file including HIP headers needs it.
Other places in the toolkit (CUPTI under `extras/`, `nvvm/`, the samples' `common/inc`, a library file
named by path) have no ROCm counterpart and are reported. A bare toolkit root assigned to a variable
(`CUDA_HOME ?= /usr/local/cuda`) is left to BLD107, which renames the variable as well.
"""
import re

from migrate.edits import encoded
from migrate.model import Edit, Severity
from migrate.rule import MakeRule, Invalid, Valid

ROOT = re.compile(r"(/usr/local/cuda(?:-\d+(?:\.\d+)*)?|/opt/cuda)(/[^\s,:;'\")]*)?(?=$|[\s,:;'\")])")
BARE_ROOT = re.compile(r"^([\"']?)(/usr/local/cuda(?:-\d+(?:\.\d+)*)?|/opt/cuda)/?\1$")
SUBDIRS = {"": "", "/": "", "/include": "/include", "/include/": "/include", "/bin": "/bin", "/bin/": "/bin"}
LIBRARY_DIR = re.compile(r"^/(?:targets/[\w-]+/)?lib(?:64)?(?:/stubs)?/?$")
TARGET_DIR = re.compile(r"^/targets/[\w-]+(/include)?/?$")


class CudaToolkitDirectory(MakeRule):
    code = "BLD106"
    examples = [
        Invalid("LDFLAGS := -L/usr/local/cuda/lib64 -Wl,-rpath,/usr/local/cuda/lib64\n",
                fixed="LDFLAGS := -L/opt/rocm/lib -Wl,-rpath,/opt/rocm/lib\n", line=1),
        Invalid("INCLUDES = -I/usr/local/cuda-12.4/include -Iinclude\n",
                fixed="INCLUDES = -I/opt/rocm/include -Iinclude\n"),
        Invalid("ROCM_PATH ?= /opt/rocm\nLDFLAGS = -L/usr/local/cuda/targets/x86_64-linux/lib\n",
                fixed="ROCM_PATH ?= /opt/rocm\nLDFLAGS = -L$(ROCM_PATH)/lib\n", line=2),
        Invalid("run: app\n\tPATH=/usr/local/cuda/bin:$$PATH ./app\n",
                fixed="run: app\n\tPATH=/opt/rocm/bin:$$PATH ./app\n"),
        Invalid("CUPTI = -I/usr/local/cuda/extras/CUPTI/include\n", line=1,
                message="/usr/local/cuda/extras/CUPTI/include is a part of the CUDA toolkit with no ROCm counterpart: "
                        "review it by hand"),
        Invalid("SYSINC = -isystem /usr/local/cuda/targets/x86_64-linux/include\n",
                fixed="SYSINC = -isystem /opt/rocm/include\n"),
        Valid("CUDA_HOME ?= /usr/local/cuda\n"),  # BLD107's
        Valid("CUDA_PATH ?= \"/usr/local/cuda-9.0\"\n"),  # BLD107's
        Valid("LDFLAGS = -L/opt/rocm/lib -L/usr/local/cudnn/lib\n"),
        Valid("NVCC = /usr/local/cuda/bin/nvcc\n"),  # BLD101's
        Valid("# -L/usr/local/cuda/lib64\n"),
    ]

    def check(self, ctx):
        defined = any(line.kind == "assign" and line.variable == "ROCM_PATH" for line in ctx.lines)
        rocm = "$(ROCM_PATH)" if defined else "/opt/rocm"
        for line in ctx.lines:
            if line.kind not in ("assign", "recipe", "rule", "other"):
                continue
            if line.kind == "assign" and len(line.words) == 1 and BARE_ROOT.match(line.words[0].text):
                continue
            for word in line.words:
                if word.text.endswith("/bin/nvcc"):
                    continue
                for m in ROOT.finditer(word.text):
                    before = word.text[:m.start()]
                    if before and not (before[-1] in "=,:'\"" or before.endswith(("-I", "-L"))):
                        continue
                    start = word.start + len(encoded(before))
                    end = word.start + len(encoded(word.text[:m.end()]))
                    sub = m.group(2) or ""
                    if sub in SUBDIRS:
                        new = rocm + SUBDIRS[sub]
                    elif TARGET_DIR.match(sub):
                        new = rocm + (TARGET_DIR.match(sub).group(1) or "") + ("/" if sub.endswith("/") else "")
                    elif LIBRARY_DIR.match(sub):
                        new = rocm + "/lib"
                    else:
                        yield self.finding(ctx, start, end, f"{m.group(0)} is a part of the CUDA toolkit with no ROCm "
                                           "counterpart: review it by hand", severity=Severity.WARNING)
                        continue
                    yield self.finding(ctx, start, end, f"{m.group(0)} is in the CUDA toolkit: ROCm's is {new}",
                                       edits=[Edit(start, end, new)], title=f"Use {new}")
