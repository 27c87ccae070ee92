"""A `.cu` source compiled by nvcc or hipcc without `-x hip` in a recipe line.

hipcc on AMD compiles a file as HIP by its language, and clang takes `.cu` for CUDA, which it then
compiles for NVIDIA: a `.cu` input needs `-x hip` before it. The inputs are found the way make sees
them: a word ending in `.cu`, a variable whose value names `.cu` files (`$(SRCS)`, `$(wildcard *.cu)`),
and the automatic variables `$<`, `$^` and `$+` when the rule's prerequisites are `.cu` files
(`app: app.cu`, `%.o: %.cu`, `$(OBJS): %.o: %.cu`, the suffix rule `.cu.o:`).

`-x hip ` is inserted before the first `.cu` input. `-x` holds for every input after it, so when an
object file or library follows in a compile-and-link line, `-x none ` goes before it (and `$^` over
`.cu` and `.o` prerequisites becomes `$(filter %.cu,$^) -x none $(filter-out %.cu,$^)`). Link-only
lines (no `.cu` input) are left alone, and so is a line that already sets `-x` before its first `.cu`
input, so a second pass changes nothing.
"""
import re

from migrate.buildfiles.make import runs_hip_compiler
from migrate.model import Edit
from migrate.rule import MakeRule, Invalid, Valid

REF = re.compile(r"\$[({]([A-Za-z_][\w.-]*)[)}]")
WHOLE_REF = re.compile(r"^\$[({]([^\s:()${}]+)(?::([^=]*)=(.*))?[)}]$")
FUNCTION = re.compile(r"^\$[({]([a-z-]+)\s+(.*)[)}]$", re.S)
AUTOMATIC = {"$<": "<", "$(<)": "<", "${<}": "<", "$^": "^", "$(^)": "^", "${^}": "^", "$+": "^", "$(+)": "^"}
TARGET_VARIABLE = re.compile(r"^\s*(?:(?:export|override|private)\s+)*[A-Za-z_][\w.-]*\s*(?:\?|:|::|\+|!)?=")
SUFFIX_RULE = re.compile(r"^\.cu\.[\w]+$")
# options whose value is the next word: that word is no input
VALUED = {"-o", "-MF", "-MT", "-MQ", "-include", "-isystem", "-iquote", "-idirafter", "-Xcompiler", "-Xlinker",
          "-Xptxas", "-ccbin", "-arch", "-gencode", "-code", "--output-file", "--compiler-options", "-L", "-I",
          "-D", "-U", "-l", "-maxrregcount", "--default-stream", "-Xclang", "-mllvm", "-rpath", "-t", "--threads"}


def kind_of_name(name: str) -> str:
    name = name.rstrip(")}")
    for suffixes, kind in (((".cu",), "cu"), ((".o", ".obj", ".a", ".so", ".lo", ".dylib"), "obj"),
                           ((".h", ".cuh", ".hpp", ".hh", ".hxx", ".inc", ".inl"), "header")):
        if name.endswith(suffixes):
            return kind
    return "other"


def split_top(text: str, separators: str) -> list[str]:
    """Split `text` at `separators` outside $(...) and ${...}."""
    parts, depth, current = [], 0, []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "$" and text[i + 1:i + 2] in ("(", "{"):
            depth += 1
            current.append(text[i:i + 2])
            i += 2
            continue
        if ch in ")}" and depth:
            depth -= 1
        if ch in separators and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(ch)
        i += 1
    parts.append("".join(current))
    return parts


def words_of(text: str) -> list[str]:
    return [w for w in split_top(text, " \t\n") if w]


class Expander:
    """The kinds ("cu", "obj", "header", "other", "unknown", "flag") of the files a word names, each once, in the order
    met. A variable is expanded once per set of prerequisites (remembered), and one that refers to itself, directly
    or through others, is "unknown" there: a Makefile that repeats `LIBS = x $(LIBS)` costs linear time, not
    exponential (a fuzz find)."""

    def __init__(self, assigned: dict[str, list[str]]):
        self.assigned = assigned
        self.known: dict[tuple, list[str]] = {}
        self.expanding: set[str] = set()

    def kinds(self, word: str, prerequisites: list[str] | None, depth: int = 0) -> list[str]:
        return list(dict.fromkeys(self._kinds(word, prerequisites, depth)))

    def _kinds(self, word: str, prerequisites: list[str] | None, depth: int) -> list[str]:
        if depth > 8:
            return ["unknown"]
        if word in AUTOMATIC:
            if prerequisites is None:
                return ["unknown"]
            found = [k for p in prerequisites for k in self.kinds(p, None, depth + 1)]
            return found[:1] if AUTOMATIC[word] == "<" else found
        if word.startswith("-"):
            return ["flag"]
        m = WHOLE_REF.match(word)
        if m:
            name, old, new = m.groups()
            if new is not None:
                return [kind_of_name(new)]
            if name not in self.assigned or name in self.expanding:
                return ["unknown"]
            key = (name, None if prerequisites is None else tuple(prerequisites))
            if key not in self.known:
                self.expanding.add(name)
                self.known[key] = [k for w in self.assigned[name] for k in self.kinds(w, prerequisites, depth + 1)]
                self.expanding.discard(name)
            return self.known[key]
        m = FUNCTION.match(word)
        if m:
            return self._function(m.group(1), [a.strip() for a in split_top(m.group(2), ",")], prerequisites, depth)
        if "$" in word and not word.endswith((".cu", ".o")):
            return ["unknown"]
        return [kind_of_name(word)]

    def _function(self, name: str, args: list[str], prerequisites, depth: int) -> list[str]:
        def listed(text):
            return [k for w in words_of(text) for k in self.kinds(w, prerequisites, depth + 1)]
        if name == "wildcard":
            return [kind_of_name(w) for w in words_of(args[0])]
        if name == "patsubst" and len(args) == 3:
            return [kind_of_name(args[1])] * max(1, len(listed(args[2])))
        if name == "addsuffix" and len(args) == 2:
            return [kind_of_name(args[0])] * max(1, len(words_of(args[1])))
        if name in ("filter", "filter-out") and len(args) == 2:
            patterns = {kind_of_name(p) for p in words_of(args[0])}
            return [k for k in listed(args[1]) if (k in patterns) == (name == "filter")]
        if name in ("addprefix", "notdir", "sort", "strip", "abspath", "realpath", "dir") and args:
            return listed(args[-1])
        return ["unknown"]


def prerequisites_of(text: str) -> list[str] | None:
    """The normal prerequisites of a rule line (None when it is a target-specific variable)."""
    parts = split_top(text.split(";", 1)[0], ":")
    if len(parts) < 2:
        return None
    targets, rest = parts[0], [p for p in parts[1:] if p != ""]  # `::` rules give an empty part
    if rest and TARGET_VARIABLE.match(rest[0]):
        return None
    if any(SUFFIX_RULE.match(t) for t in words_of(targets)):
        return ["%.cu"]
    chosen = rest[-1] if rest else ""
    return words_of(split_top(chosen, "|")[0])


class CuSourceWithoutXHip(MakeRule):
    code = "BLD108"
    examples = [
        Invalid("$(TARGET): saxpy.cu\n\t$(NVCC) $(NVCCFLAGS) -o $@ $<\n",
                fixed="$(TARGET): saxpy.cu\n\t$(NVCC) $(NVCCFLAGS) -o $@ -x hip $<\n", line=2),
        Invalid("%.o: %.cu stencil.cuh\n\t$(NVCC) $(NVCCFLAGS) -c -o $@ $<\n",
                fixed="%.o: %.cu stencil.cuh\n\t$(NVCC) $(NVCCFLAGS) -c -o $@ -x hip $<\n"),
        Invalid("all:\n\thipcc -O2 -o app main.cu util.o -lm\n",
                fixed="all:\n\thipcc -O2 -o app -x hip main.cu -x none util.o -lm\n"),
        Invalid("app: main.cu util.o\n\t$(NVCC) -o $@ $^\n",
                fixed="app: main.cu util.o\n\t$(NVCC) -o $@ -x hip $(filter %.cu,$^) -x none $(filter-out %.cu,$^)\n"),
        Invalid("SRCS := $(wildcard src/*.cu)\nOBJS := $(SRCS:.cu=.o)\n$(OBJS): %.o: %.cu\n\t$(NVCC) -c $< -o $@\n"
                "app: $(SRCS)\n\t$(NVCC) -o $@ $(SRCS)\n",
                fixed="SRCS := $(wildcard src/*.cu)\nOBJS := $(SRCS:.cu=.o)\n$(OBJS): %.o: %.cu\n"
                      "\t$(NVCC) -c -x hip $< -o $@\napp: $(SRCS)\n\t$(NVCC) -o $@ -x hip $(SRCS)\n"),
        Invalid(".cu.o:\n\t@$(NVCC) -c $<\n", fixed=".cu.o:\n\t@$(NVCC) -c -x hip $<\n"),
        Valid("app: main.o kernels.o\n\t$(NVCC) -o $@ $^ -lhipblas\n"),  # link only
        Valid("%.o: %.cu\n\t$(NVCC) -c -x hip $< -o $@\n\t@echo built $<\n"),
        Valid("%.o: %.cpp\n\t$(NVCC) -c $< -o $@\n"),
        Valid("%.o: %.cu\n\t$(CXX) -c $< -o $@\n"),  # not nvcc or hipcc
        # a variable that takes its own value, many times over: expanded in linear time (a fuzz find hung here)
        Invalid("SRCS = a.cu\n" + "SRCS := $(SRCS) b.cu\n" * 16 + "app: $(SRCS)\n\tnvcc -o app $(SRCS)\n",
                fixed="SRCS = a.cu\n" + "SRCS := $(SRCS) b.cu\n" * 16 + "app: $(SRCS)\n\tnvcc -o app -x hip $(SRCS)\n",
                line=19),
    ]

    def check(self, ctx):
        assigned: dict[str, list[str]] = {}
        for line in ctx.lines:
            if line.kind == "assign":
                assigned.setdefault(line.variable, []).extend(w.text for w in line.words)
        expander = Expander(assigned)
        prerequisites, defining = None, False
        for line in ctx.lines:
            head = line.text.split(None, 1)[0] if line.text.strip() else ""
            if line.kind != "recipe" and head in ("define", "endef"):
                defining, prerequisites = head == "define", None
            if line.kind == "rule" and not defining:
                found = prerequisites_of(line.text)
                if found is not None:
                    prerequisites = found
            elif line.kind == "assign":
                prerequisites = None
            if line.kind == "recipe" and line.words and runs_hip_compiler(line.words[0].text, assigned):
                yield from self._recipe(ctx, line, expander, prerequisites)

    def _recipe(self, ctx, line, expander, prerequisites):
        language, ours, skip = None, False, False
        words = line.words
        for i, word in enumerate(words[1:], 1):
            text = word.text
            if skip:
                skip = False
                continue
            if text == "-x" and i + 1 < len(words):
                language, skip = words[i + 1].text, True
                continue
            if text.startswith("-x") and len(text) > 2:
                language = text[2:]
                continue
            if text in VALUED:
                skip = True
                continue
            kinds = set(expander.kinds(text, prerequisites)) - {"flag", "unknown", "header"}
            if not kinds:
                continue
            if "cu" in kinds and language in (None, "none"):
                if "obj" not in kinds:
                    new = "-x hip " + text
                else:
                    new = f"-x hip $(filter %.cu,{text}) -x none $(filter-out %.cu,{text})"
                yield self.finding(ctx, word.start, word.end, f"{text} compiles .cu source: hipcc's clang takes .cu "
                                   "for CUDA, for NVIDIA GPUs; -x hip before it compiles it as HIP",
                                   edits=[Edit(word.start, word.end, new)], title="Add -x hip")
                language, ours = ("hip" if "obj" not in kinds else "none"), True
            elif "obj" in kinds and "cu" not in kinds and language == "hip" and ours:
                yield self.finding(ctx, word.start, word.end, f"{text} follows -x hip, which would compile it as HIP "
                                   "source: -x none before it", edits=[Edit(word.start, word.start, "-x none ")],
                                   title="Add -x none")
                language = "none"
