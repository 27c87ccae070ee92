"""Variables that hold the CUDA toolkit's root: `CUDA_HOME ?= /usr/local/cuda`, `CUDA_PATH`,
`CUDA_ROOT`, `CUDA_DIR`, `CUDA_TOOLKIT_ROOT_DIR`, ... (and any variable set to a bare toolkit root such
as `/usr/local/cuda-12.4`), with every `$(CUDA_HOME)` reference.

ROCm's root is `ROCM_PATH` (`/opt/rocm` by default), the variable ROCm's own tools read. A definition
is renamed (`CUDA_HOME ?= /usr/local/cuda` → `ROCM_PATH ?= /opt/rocm`; a value computed some other way is
kept and reported), and each reference becomes `$(ROCM_PATH)`, with `lib64` (and `lib64/stubs`,
`targets/<arch>/lib`) after it becoming `lib`, where ROCm keeps its libraries, and `targets/<arch>` the
root itself. `ifdef`, `ifndef`,
`export` and `unexport` of the variable follow. A definition that only repeats another toolkit
variable (`CUDA_PATH ?= $(CUDA_HOME)`) is removed (it would define ROCM_PATH as itself), and so are
all of them when the Makefile already sets ROCM_PATH. When references remain but nothing defines
ROCM_PATH, `ROCM_PATH ?= /opt/rocm` is added before the first statement. `$(CUDA_HOME)/bin/nvcc` is
BLD101's (it becomes hipcc); other places under the toolkit (`extras/CUPTI`, `nvvm`, a library file)
have no ROCm counterpart: the reference is renamed and reported.
"""
import re

from migrate.edits import decoded, encoded
from migrate.model import Edit, Severity
from migrate.rule import MakeRule, Invalid, Valid

NAMES = {"CUDA_HOME", "CUDA_PATH", "CUDA_ROOT", "CUDA_DIR", "CUDADIR", "CUDA_TOOLKIT_ROOT_DIR", "CUDA_TOOLKIT_DIR",
         "CUDA_TOOLKIT_PATH", "CUDA_TOOLKIT_HOME", "CUDATOOLKIT_HOME", "CUDA_INSTALL_PATH", "CUDA_INSTALL_DIR"}
BARE_ROOT = re.compile(r"^([\"']?)(/usr/local/cuda(?:-\d+(?:\.\d+)*)?|/opt/cuda)/?\1$")
NAME = re.compile(rb"\s*(?:(?:export|override)\s+)?([A-Za-z_][\w.-]*)")
REF = re.compile(rb"(?<!\$)\$([({])([A-Za-z_][\w.-]*)[)}](/[^\s,:;'\")]*)?")
DIRECTIVE = re.compile(rb"\s*(?:ifdef|ifndef|export|unexport|undefine)\s+")
LIBRARY_DIR = re.compile(r"^/(?:targets/[\w-]+/)?lib(?:64)?(?:/stubs)?/?$")
KEPT = re.compile(r"^(?:/|/include/?|/bin/?|/lib/?)?$")
TARGET_DIR = re.compile(r"^/targets/[\w-]+(/include)?/?$")


class CudaToolkitPathVariable(MakeRule):
    code = "BLD107"
    examples = [
        Invalid("CUDA_HOME ?= /usr/local/cuda\nINC = -I$(CUDA_HOME)/include\nLDFLAGS = -L$(CUDA_HOME)/lib64\n",
                fixed="ROCM_PATH ?= /opt/rocm\nINC = -I$(ROCM_PATH)/include\nLDFLAGS = -L$(ROCM_PATH)/lib\n", line=1),
        Invalid("CUDA_PATH ?= /usr/local/cuda-12.4\nCUDA_HOME ?= $(CUDA_PATH)\n"
                "LIBS = -L${CUDA_HOME}/lib64/stubs -lcuda\n",
                fixed="ROCM_PATH ?= /opt/rocm\nLIBS = -L${ROCM_PATH}/lib -lcuda\n"),
        Invalid("# flags\n\nifndef CUDA_HOME\n$(error no toolkit)\nendif\nNVCC = $(CUDA_HOME)/bin/nvcc\n",
                fixed="# flags\n\nROCM_PATH ?= /opt/rocm\nifndef ROCM_PATH\n$(error no toolkit)\nendif\n"
                      "NVCC = $(CUDA_HOME)/bin/nvcc\n", line=3),
        Invalid("ROCM_PATH ?= /opt/rocm\nCUDA_HOME := /usr/local/cuda\nexport CUDA_HOME\n",
                fixed="ROCM_PATH ?= /opt/rocm\nexport ROCM_PATH\n", line=2),
        Invalid("CUDA_HOME = $(shell dirname $$(dirname $$(which nvcc)))\n",
                fixed="ROCM_PATH = $(shell dirname $$(dirname $$(which nvcc)))\n",
                message="CUDA_HOME holds the CUDA toolkit's root: ROCm's is ROCM_PATH; its value is computed here: "
                        "check that it finds ROCm (/opt/rocm by default)"),
        Invalid("CUPTI = $(CUDA_PATH)/extras/CUPTI/lib64\n",
                fixed="ROCM_PATH ?= /opt/rocm\nCUPTI = $(ROCM_PATH)/extras/CUPTI/lib64\n"),
        Invalid("TOOLKIT := /opt/cuda/\nLDFLAGS = -L$(TOOLKIT)/lib64\n",
                fixed="ROCM_PATH := /opt/rocm\nLDFLAGS = -L$(ROCM_PATH)/lib\n"),
        Invalid("CUDA_DIR ?= \"/usr/local/cuda-9.0\"\nBUILD = $(CUDA_DIR)/targets/x86_64-linux/\n"
                "INC = -I$(BUILD)include\n",
                fixed="ROCM_PATH ?= \"/opt/rocm\"\nBUILD = $(ROCM_PATH)/\nINC = -I$(BUILD)include\n"),
        Valid("ROCM_PATH ?= /opt/rocm\nLDFLAGS = -L$(ROCM_PATH)/lib\n"),
        Valid("CUDA_HOME_SUFFIX = x\nrun:\n\techo $$CUDA_HOME\n"),
        Valid("# CUDA_HOME ?= /usr/local/cuda\n"),
    ]

    def check(self, ctx):
        homes = set(NAMES)
        homes |= {line.variable for line in ctx.lines
                  if line.kind == "assign" and len(line.words) == 1 and BARE_ROOT.match(line.words[0].text)}
        homes.discard("ROCM_PATH")
        rocm_defined = any(line.kind == "assign" and line.variable == "ROCM_PATH" for line in ctx.lines)
        defines_rocm = rocm_defined or any(self._fate(ctx, line, homes, rocm_defined)[0] == "renamed"
                                           for line in ctx.lines)
        told = defines_rocm  # whether ROCM_PATH is defined, or the first reference already adds it
        for line in ctx.lines:  # line by line, each line's findings in order of place: the file's are never all held
            fate, repeats = self._fate(ctx, line, homes, rocm_defined)
            here = [] if fate is None else [self._definition(ctx, line, fate, repeats, rocm_defined)]
            if fate != "deleted" and line.kind != "comment":
                references = self._references(ctx, line, homes)
                if references and not told:
                    references[0] = self._defining(ctx, references[0])
                    told = True
                here += references
            here.sort(key=lambda f: f.span.start)
            yield from here

    @staticmethod
    def _fate(ctx, line, homes: set[str], rocm_defined: bool) -> tuple[str | None, re.Match | None]:
        """What becomes of an assignment to a CUDA root: "deleted" (ROCM_PATH is set already, or it only repeats
        another root), "renamed" to ROCM_PATH, or None (not such an assignment, or written in a way left alone)."""
        if line.kind != "assign" or line.variable not in homes:
            return None, None
        value = " ".join(w.text for w in line.words)
        repeats = re.fullmatch(r"\$[({]([A-Za-z_][\w.-]*)[)}]", value)
        if rocm_defined or (repeats and repeats.group(1) in homes):
            return "deleted", repeats
        m = NAME.match(ctx.data, line.start)
        if m is None or m.group(1).decode("ascii", "replace") != line.variable:
            return None, None
        return "renamed", None

    def _definition(self, ctx, line, fate: str, repeats: re.Match | None, rocm_defined: bool):
        data = ctx.data
        if fate == "deleted":
            stop = data.find(b"\n", line.end)
            why = ("the Makefile already sets ROCM_PATH" if rocm_defined
                   else f"it only repeats {repeats.group(1)}, which becomes ROCM_PATH")
            return self.finding(ctx, line.start, line.end, f"{line.variable} holds the CUDA toolkit's root: ROCm's is "
                                f"ROCM_PATH; this definition is removed: {why}",
                                edits=[Edit(line.start, len(data) if stop < 0 else stop + 1, "")],
                                title=f"Remove {line.variable}")
        m = NAME.match(data, line.start)
        edits = [Edit(m.start(1), m.end(1), "ROCM_PATH")]
        message = f"{line.variable} holds the CUDA toolkit's root: ROCm's is ROCM_PATH"
        severity = None
        bare = BARE_ROOT.match(line.words[0].text) if len(line.words) == 1 else None
        value = " ".join(w.text for w in line.words)
        if bare:
            quote = bare.group(1)
            edits.append(Edit(line.words[0].start, line.words[0].end, f"{quote}/opt/rocm{quote}"))
        elif line.words and not REF.fullmatch(encoded(value)):
            message += "; its value is computed here: check that it finds ROCm (/opt/rocm by default)"
            severity = Severity.WARNING
        return self.finding(ctx, m.start(1), m.end(1), message, edits=edits, severity=severity,
                            title="Rename to ROCM_PATH")

    def _references(self, ctx, line, homes: set[str]) -> list:
        out = []
        for m in REF.finditer(ctx.data, line.start, line.end):
            if decoded(m.group(2)) in homes and m.group(3) != b"/bin/nvcc":
                out.append(self._reference(ctx, m))
        d = DIRECTIVE.match(ctx.data, line.start, line.end)
        if d and line.kind != "assign":
            for w in line.words[1:]:
                if w.text in homes:
                    out.append(self.finding(ctx, w.start, w.end, f"{w.text} holds the CUDA toolkit's root: ROCm's is "
                                            "ROCM_PATH", edits=[Edit(w.start, w.end, "ROCM_PATH")],
                                            title="Rename to ROCM_PATH"))
        return out

    def _defining(self, ctx, first):
        """The first reference, adding `ROCM_PATH ?= /opt/rocm` where the Makefile's first statement is."""
        where = next(line.start for line in ctx.lines if line.kind not in ("comment", "other") or line.words)
        edits = (Edit(where, where, f"ROCM_PATH ?= /opt/rocm{ctx.newline}"), *first.fix.edits)
        return self.finding(ctx, first.span.start, first.span.end, first.message + "; nothing here defines "
                            "ROCM_PATH, so `ROCM_PATH ?= /opt/rocm` is added", edits=edits, severity=first.severity,
                            title=first.fix.title)

    def _reference(self, ctx, m):
        name, sub = decoded(m.group(2)), decoded(m.group(3) or b"")
        close = ")" if m.group(1) == b"(" else "}"
        severity = None
        message = f"$({name}) is the CUDA toolkit's root: ROCm's is $(ROCM_PATH)"
        if KEPT.match(sub):
            new = f"${decoded(m.group(1))}ROCM_PATH{close}{sub}"
        elif TARGET_DIR.match(sub):
            target = TARGET_DIR.match(sub)
            new = f"${decoded(m.group(1))}ROCM_PATH{close}{target.group(1) or ''}{'/' if sub.endswith('/') else ''}"
            message += f", which has no {sub.strip('/')}: ROCm keeps include and lib under its root"
        elif LIBRARY_DIR.match(sub):
            new = f"${decoded(m.group(1))}ROCM_PATH{close}/lib"
            message += ", with its libraries in lib"
        else:
            new = f"${decoded(m.group(1))}ROCM_PATH{close}{sub}"
            message += f"; {sub.lstrip('/')} has no ROCm counterpart: review it by hand"
            severity = Severity.WARNING
        return self.finding(ctx, m.start(), m.end(), message, edits=[Edit(m.start(), m.end(), new)],
                            severity=severity, title="Use ROCM_PATH")
