"""nvcc-only options in a Makefile: in any assignment (`NVCCFLAGS`, `CUDAFLAGS`, ...), in a
target-specific variable, and in recipe lines that run nvcc or hipcc.

hipcc hands its options to clang, which does not know nvcc's. The table in
`migrate/buildfiles/nvcc_options.py` says what each becomes: `--use_fast_math` → `-ffast-math`,
`-lineinfo` → `-gline-tables-only`, `-Xcompiler -fPIC,-Wall` → `-fPIC -Wall`, `-rdc=true` → `-fgpu-rdc`,
`--default-stream per-thread` → `-fgpu-default-stream=per-thread`, `-x cu` → `-x hip`; options clang
does not need are removed (`--expt-relaxed-constexpr`, `--expt-extended-lambda`, `-ccbin g++`, and nvcc's
parallel compilation `--threads 0`, `--threads=0`, `-t=0`, `-t 0`, `-t=$(NPROC)`, which hipcc rejects).
Options with no AMD counterpart (`-Xptxas -v`, `-maxrregcount 64`, `-Xcudafe ...`, `-dlink`) are
removed too, with a warning at their place: the build no longer asks for what they did.

Architecture flags are BLD102's, `-l` libraries BLD104's and BLD105's. A quoted value
(`-Xcompiler "-fPIC -Wall"`) is read whole, and its options are written unquoted.
"""

from migrate.buildfiles.make import drop, runs_hip_compiler
from migrate.buildfiles.nvcc_options import is_architecture_option, translate_option
from migrate.model import Edit, Severity
from migrate.rule import MakeRule, Invalid, Valid



def tokens(words):
    """(text, start, end) of each argument: words, with a quoted argument split over several words joined
    and its quotes removed."""
    out, i = [], 0
    while i < len(words):
        w = words[i]
        quote = w.text[-1] if w.text[-1:] in ("'", '"') and w.text.count(w.text[-1]) == 1 else None
        opening = next((q for q in ("'", '"') if w.text.count(q) % 2 == 1), None)
        if opening is None or quote:
            out.append((w.text, w.start, w.end, False))
            i += 1
            continue
        j = i + 1
        while j < len(words) and words[j].text.count(opening) % 2 == 0:
            j += 1
        j = min(j, len(words) - 1)
        text = " ".join(x.text for x in words[i:j + 1])
        out.append((text, w.start, words[j].end, True))
        i = j + 1
    return out


def unquoted(text: str) -> list[str]:
    """The arguments a shell makes of `text`, for the simple quoting Makefiles use."""
    return [part.replace('"', "").replace("'", "") for part in text.split()] if ('"' in text or "'" in text) else [text]


class NvccOnlyOption(MakeRule):
    code = "BLD103"
    examples = [
        Invalid("NVCCFLAGS = -O3 --use_fast_math -lineinfo --expt-relaxed-constexpr\n",
                fixed="NVCCFLAGS = -O3 -ffast-math -gline-tables-only\n", line=1),
        Invalid("CUDAFLAGS := -ccbin g++ -Xcompiler -fPIC,-Wall -rdc=true\n",
                fixed="CUDAFLAGS := -fPIC -Wall -fgpu-rdc\n"),
        Invalid("NVCC_FLAGS += --compiler-options \"-fopenmp -Wextra\" --default-stream per-thread\n",
                fixed="NVCC_FLAGS += -fopenmp -Wextra -fgpu-default-stream=per-thread\n"),
        # a quote left open on the line (a fuzz find): the options it would hold are left as they are
        Valid("NVCC_FLAGS += --compiler-options \"-fopenmp --expt-extended-lambda -G\n"),
        # host options that are nvcc's (a quote misplaced, a fuzz find): what was meant is not known, so the
        # value is left as it is rather than written out for a second run to rewrite again
        Invalid("NVCC_FLAGS += --compiler-options \"-fopenmp -O2 --compiler-options \" -G\n",
                fixed="NVCC_FLAGS += --compiler-options \"-fopenmp -O2 --compiler-options \" -g\n"),
        Invalid("NVCC_FLAGS += --compiler-options \"-fopenmp --expt-extended-l\"ambda -G\n",
                fixed="NVCC_FLAGS += --compiler-options \"-fopenmp --expt-extended-l\"ambda -g\n"),
        Invalid("NVCCFLAGS = -O2 \\\n\t-Xptxas -v \\\n\t-maxrregcount=64\n", fixed="NVCCFLAGS = -O2\n",
                message="-Xptxas -v is an nvcc option with no AMD counterpart: ptxas is NVIDIA's assembler: AMD's "
                        "code generator has no such options; removed"),
        Invalid("k.o: k.cpp\n\t$(NVCC) -x cu --expt-extended-lambda -c $< -o $@\n",
                fixed="k.o: k.cpp\n\t$(NVCC) -x hip -c $< -o $@\n", line=2),
        Invalid("debug: NVCCFLAGS += -G -lineinfo\n", fixed="debug: NVCCFLAGS += -g -gline-tables-only\n"),
        Invalid("NVCC_FLAGS = --threads=0 -t=0 --use_fast_math -std=c++17 -O3\n",
                fixed="NVCC_FLAGS = -ffast-math -std=c++17 -O3\n",
                message="-t=0 is an nvcc option: nvcc's parallel compilation of architectures; clang has no such "
                        "option; removed"),
        Invalid("NVCCFLAGS += -t 0 --threads 4 -O2\n", fixed="NVCCFLAGS += -O2\n"),
        Invalid("k: k.cu\n\t$(NVCC) -O3 -t=$(NPROC) -o $@ $<\n", fixed="k: k.cu\n\t$(NVCC) -O3 -o $@ $<\n", line=2),
        Valid("NVCCFLAGS = -O3 -ffast-math -gline-tables-only -fgpu-rdc -std=c++17 -x hip\n"),
        Valid("INSTALL_FLAGS = -t $(PREFIX)/bin\ninstall:\n\tinstall -t $(PREFIX)/bin app\n"),  # install's -t DIR
        Valid("clean:\n\trm -f -x cu *.o\n\ttar -x -f a.tar\n"),  # not a compiler
        Valid("LIBS = -lcublas\nARCH = -arch=sm_80\n"),  # BLD105's, BLD102's
        Valid("# NVCCFLAGS = --use_fast_math\n"),
    ]

    def check(self, ctx):
        assigned: dict[str, list[str]] = {}
        for line in ctx.lines:
            if line.kind == "assign":
                assigned.setdefault(line.variable, []).extend(w.text for w in line.words)
        for line in ctx.lines:
            if line.kind == "recipe":
                if not line.words or not runs_hip_compiler(line.words[0].text, assigned):
                    continue
            elif line.kind not in ("assign", "rule"):
                continue
            line_text = " ".join(w.text for w in line.words)
            if line_text.count('"') % 2 or line_text.count("'") % 2:
                continue  # a quote left open: which words it holds is not known, so none is rewritten
            args = tokens(line.words)
            texts = [t[0] if not t[3] else t[0].strip("'\"") for t in args]
            floor = line.start + (1 if line.kind == "recipe" else 0)
            i = 0
            while i < len(args):
                text = texts[i]
                if is_architecture_option(text):
                    i += 2 if "=" not in text else 1
                    continue
                if text.startswith("-l") and text != "-lineinfo":  # a library
                    i += 1
                    continue
                new, consumed, reason = translate_option(texts, i)
                original = texts[i:i + consumed]
                if new == original:
                    i += consumed
                    continue
                start, end = args[i][1], args[i + consumed - 1][2]
                written = " ".join(args[k][0] for k in range(i, i + consumed))
                if new is None:
                    yield self.finding(ctx, start, end, f"{written} is an nvcc option with no AMD counterpart: "
                                       f"{reason}; removed", severity=Severity.WARNING,
                                       edits=[drop(ctx.data, floor, start, end)], title=f"Remove {written}")
                elif not new:
                    yield self.finding(ctx, start, end, f"{written} is an nvcc option: {reason}; removed",
                                       edits=[drop(ctx.data, floor, start, end)], title=f"Remove {written}")
                else:
                    text = " ".join(part for n in new for part in unquoted(n))
                    yield self.finding(ctx, start, end, f"{written} is an nvcc option: {reason}; hipcc takes {text}",
                                       edits=[Edit(start, end, text)], title=f"Use {text}")
                i += consumed
