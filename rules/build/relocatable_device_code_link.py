"""A hipcc link line without `-fgpu-rdc` in a Makefile that compiles relocatable device code.

nvcc's separate compilation (`-dc`, `-rdc=true`) becomes clang's `-fgpu-rdc`. nvcc links the device
code of such objects by itself; clang does it only when the link line also says `-fgpu-rdc` (hipcc
then adds `--hip-link` and links the device code for the `--offload-arch` targets of that line).
Without it the link fails (`undefined reference to __hip_fatbin`). So in a Makefile that compiles
with `-dc`, `--device-c`, `-rdc=true` or `-fgpu-rdc` (in any variable or recipe), each recipe line that
runs nvcc or hipcc over object files without compiling (`-c`, `-dc`, `-E`, `-M`, `-S`), and that does
not pass `-fgpu-rdc` already (itself or through its variables), gets `-fgpu-rdc` after the compiler.
A separate device-link step (`nvcc -dlink`) has no counterpart (BLD103 removes `-dlink` and warns):
it becomes such a link line too, and gets `-fgpu-rdc` as well.
"""
import re

from migrate.buildfiles.make import runs_hip_compiler
from migrate.buildfiles.nvcc_options import translate_option
from migrate.model import Edit
from migrate.rule import MakeRule, Invalid, Valid

REF = re.compile(r"\$[({]([A-Za-z_][\w.-]*)[)}]")
WHOLE_REF = re.compile(r"^\$[({]([A-Za-z_][\w.-]*)[)}]$")
AUTOMATIC = {"$<": 1, "$(<)": 1, "$^": None, "$(^)": None, "$+": None}
COMPILE_ONLY = {"-c", "-dc", "--device-c", "-E", "-M", "-MM", "-S", "-fsyntax-only",
                "-ptx", "-cubin", "-fatbin", "--genco", "--compile"}
WORDS = 10_000  # the most words one recipe word is expanded to
OBJECT = re.compile(r"(?:\.o|\.a|\.obj|\.o\)|\.o\})$|^\$\(patsubst [^,]*,[^,]*\.o\s*,")


def split_top(text: str, separators: str) -> list[str]:
    """Split `text` at `separators` outside $(...) and ${...}."""
    parts, depth, current, i = [], 0, [], 0
    while i < len(text):
        if text[i] == "$" and text[i + 1:i + 2] in ("(", "{"):
            depth += 1
            current.append(text[i:i + 2])
            i += 2
            continue
        if text[i] in ")}" and depth:
            depth -= 1
        if text[i] in separators and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(text[i])
        i += 1
    parts.append("".join(current))
    return parts


def prerequisites_of(text: str) -> list[str] | None:
    """The normal prerequisites of a rule line (None for a target-specific variable)."""
    parts = [p for p in split_top(text.split(";", 1)[0], ":")]
    if len(parts) < 2 or re.match(r"^\s*(?:(?:export|override|private)\s+)*[\w.-]+\s*[?+!:]*=", parts[-1]):
        return None
    return [w for w in split_top(split_top(parts[-1], "|")[0], " \t") if w]


def makes_rdc(words: list[str], i: int) -> bool:
    return words[i] == "-fgpu-rdc" or "-fgpu-rdc" in (translate_option(words, i).words or [])


class RelocatableDeviceCodeLink(MakeRule):
    code = "BLD109"
    examples = [
        Invalid("%.o: %.cu\n\t$(NVCC) $(ARCH) -dc $< -o $@\napp: main.o kernels.o\n\t$(NVCC) $(ARCH) -o $@ $^\n",
                fixed="%.o: %.cu\n\t$(NVCC) $(ARCH) -dc $< -o $@\n"
                      "app: main.o kernels.o\n\t$(NVCC) -fgpu-rdc $(ARCH) -o $@ $^\n",
                line=4),
        Invalid("NVCCFLAGS = -rdc=true\nOBJS = a.o b.o\n%.o: %.cu\n\tnvcc $(NVCCFLAGS) -c $< -o $@\n"
                "app: $(OBJS)\n\thipcc -o app $(OBJS) -lhipblas\n",
                fixed="NVCCFLAGS = -rdc=true\nOBJS = a.o b.o\n%.o: %.cu\n\tnvcc $(NVCCFLAGS) -c $< -o $@\n"
                      "app: $(OBJS)\n\thipcc -fgpu-rdc -o app $(OBJS) -lhipblas\n"),
        Valid("NVCCFLAGS = -fgpu-rdc\n%.o: %.cu\n\t$(NVCC) $(NVCCFLAGS) -c $< -o $@\n"
              "app: a.o\n\t$(NVCC) $(NVCCFLAGS) -o $@ $^\n"),
        Valid("%.o: %.cu\n\t$(NVCC) -c $< -o $@\napp: a.o\n\t$(NVCC) -o $@ $^\n"),  # whole-program compilation
        Invalid("%.o: %.cu\n\t$(NVCC) -dc $< -o $@\ndlink.o: a.o\n\t$(NVCC) -dlink $^ -o $@\n",
                fixed="%.o: %.cu\n\t$(NVCC) -dc $< -o $@\ndlink.o: a.o\n\t$(NVCC) -fgpu-rdc -dlink $^ -o $@\n"),
        # a variable that takes its own value, many times over: expanded in linear time (a fuzz find hung here)
        Invalid("LIBS = -lcudadevrt\n" + "LIBS := $(LIBS) -lm\n" * 16 + "%.o: %.cu\n\tnvcc -rdc=true -c $< -o $@\n"
                "app: a.o\n\tnvcc -o app $^ $(LIBS)\n",
                fixed="LIBS = -lcudadevrt\n" + "LIBS := $(LIBS) -lm\n" * 16 + "%.o: %.cu\n\tnvcc -rdc=true -c $< -o $@\n"
                      "app: a.o\n\tnvcc -fgpu-rdc -o app $^ $(LIBS)\n", line=21),
    ]

    def check(self, ctx):
        assigned: dict[str, list[str]] = {}
        for line in ctx.lines:
            if line.kind == "assign":
                assigned.setdefault(line.variable, []).extend(w.text for w in line.words)
        if not any(makes_rdc(words, i) for words in self._words(ctx) for i in range(len(words))):
            return
        prerequisites = None
        for line in ctx.lines:
            if line.kind == "rule":
                found = prerequisites_of(line.text)
                prerequisites = found if found is not None else prerequisites
            if line.kind != "recipe" or len(line.words) < 2 or not runs_hip_compiler(line.words[0].text, assigned):
                continue
            words = [x for w in line.words[1:] for x in self._expand(w.text, assigned, prerequisites, 0)]
            if any(w in COMPILE_ONLY for w in words) or any(makes_rdc(words, i) for i in range(len(words))):
                continue
            if any(OBJECT.search(w) for w in words):
                at = line.words[0].end
                yield self.finding(ctx, line.words[1].start, line.words[-1].end, "this line links objects while the "
                                   "Makefile compiles relocatable device code: clang links their device code only "
                                   "with -fgpu-rdc, for the --offload-arch targets of this line",
                                   edits=[Edit(at, at, " -fgpu-rdc")], title="Link with -fgpu-rdc")

    @staticmethod
    def _words(ctx):
        """The words of each assignment, recipe and rule line (one line's at a time: a huge Makefile's are many)."""
        for line in ctx.lines:
            if line.kind in ("assign", "recipe", "rule"):
                yield [w.text for w in line.words]

    def _expand(self, word: str, assigned, prerequisites, depth: int, expanding: frozenset = frozenset()) -> list[str]:
        """The words `word` stands for: variables and automatic variables expanded (a few levels deep). A variable
        met again inside its own expansion (`LIBS := $(LIBS) -lx`, written twice) stays as it is written, and the
        words stop at WORDS: the expansion takes linear time, not exponential (a fuzz find)."""
        if depth > 8:
            return [word]
        if word in AUTOMATIC:
            chosen = (prerequisites or [])[:AUTOMATIC[word]] if AUTOMATIC[word] else (prerequisites or [])
            return [x for p in chosen for x in self._expand(p, assigned, None, depth + 1, expanding)][:WORDS]
        m = WHOLE_REF.match(word)
        if m and m.group(1) in assigned and m.group(1) not in expanding:
            inner = expanding | {m.group(1)}
            words: list[str] = []
            for w in assigned[m.group(1)]:
                words += self._expand(w, assigned, prerequisites, depth + 1, inner)
                if len(words) >= WORDS:
                    break
            return words[:WORDS]
        return [word]
