"""nvcc architecture flags in a Makefile: `-arch=sm_90`, `-arch sm_80`, `--gpu-architecture=...`,
`-gencode arch=compute_80,code=sm_80` (or `--generate-code`), `-code=sm_80` (or `--gpu-code`).

They name NVIDIA architectures, which hipcc does not know; AMD targets are given with
`--offload-arch=<gfx>`, once per target. The targets come from `--offload-arch` of hipmigrate
(by default gfx942 for HIP 6 and later, gfx90a and gfx940 for HIP 5). In each assignment, recipe line or target-specific variable, the first
architecture flag becomes the whole `--offload-arch` list and the others are removed (with the value
word that follows a flag written without `=`, continuation lines included). Two lines that both set
architectures both get the list: clang ignores a target given twice.

Architecture flags built by make functions (`$(foreach sm,$(SMS),-gencode arch=compute_$(sm),...)`)
cannot be rewritten word by word: they are reported, for a hand edit.
"""
import re

from migrate.buildfiles.make import drop
from migrate.model import Edit, Severity
from migrate.rule import MakeRule, Invalid, Valid

FLAG = re.compile(r"^(-arch|--gpu-architecture|-gencode|--generate-code|-code|--gpu-code)(?:=(.*))?$")
# -arch is also an Apple compiler flag (-arch x86_64): only NVIDIA values count
NVIDIA_ARCH = re.compile(r"^[\"']?(?:sm_|compute_|lto_|native$|all$|all-major$|.*\$[({])")
IN_FUNCTION = re.compile(r"-gencode|--generate-code|arch=compute_|code=sm_|-arch[= ]sm_|--gpu-architecture")


class NvccArchitectureFlag(MakeRule):
    code = "BLD102"
    examples = [
        Invalid("NVCCFLAGS ?= -O2 -std=c++17 -arch=sm_90\n",
                fixed="NVCCFLAGS ?= -O2 -std=c++17 --offload-arch=gfx942\n", line=1),
        Invalid("NVCCFLAGS := -arch sm_80 -O3\n",
                fixed="NVCCFLAGS := --offload-arch=gfx942 -O3\n"),
        Invalid("GENCODE = -gencode arch=compute_70,code=sm_70 \\\n"
                "          -gencode arch=compute_80,code=sm_80 \\\n"
                "          -gencode=arch=compute_90,code=[sm_90,compute_90]\n",
                fixed="GENCODE = --offload-arch=gfx942\n"),
        Invalid("FLAGS = --gpu-architecture=compute_80 --gpu-code=sm_80,sm_86 -lineinfo\n",
                fixed="FLAGS = --offload-arch=gfx942 -lineinfo\n"),
        Invalid("app: app.cu\n\tnvcc -O2 -arch=sm_$(SM) -o $@ $<\n",
                fixed="app: app.cu\n\tnvcc -O2 --offload-arch=gfx942 -o $@ $<\n", line=2),
        Invalid("debug: NVCCFLAGS += -G -arch=native\n",
                fixed="debug: NVCCFLAGS += -G --offload-arch=gfx942\n"),
        Invalid("NVCCFLAGS = -arch=sm_80\n", fixed="NVCCFLAGS = --offload-arch=gfx942\n",
                options=(("offload_arch", ("gfx942",)),)),
        Invalid("SMS ?= 80 90\n$(foreach sm,$(SMS),$(eval GENCODE += -gencode arch=compute_$(sm),code=sm_$(sm)))\n",
                line=2),
        Valid("NVCCFLAGS = -O2 --offload-arch=gfx90a --offload-arch=gfx940\n"),
        Valid("CFLAGS = -arch x86_64 -arch arm64\n"),  # Apple's -arch
        Valid("# NVCCFLAGS = -arch=sm_80\nARCH := sm_80\n"),
        # a quote left open (a fuzz find): what follows it is inside the quote, so that flag is not replaced
        Invalid("FLAGS = --gpu-architecture=compute_80 --gpu-code=sm_8'0,sm_86 -lineinfo\n",
                fixed="FLAGS = --offload-arch=gfx942 --gpu-code=sm_8'0,sm_86 -lineinfo\n"),
    ]

    def check(self, ctx):
        targets = " ".join(f"--offload-arch={a}" for a in ctx.targets)
        for line in ctx.lines:
            if line.kind not in ("assign", "recipe", "rule", "other"):
                continue
            words, groups, i = line.words, [], 0
            while i < len(words):
                size = self._flag_size(words, i) if line.kind != "other" else 0
                if size:
                    groups.append((i, i + size - 1))
                    i += size
                    continue
                if "$(" in words[i].text or "${" in words[i].text:
                    if IN_FUNCTION.search(words[i].text):
                        w = words[i]
                        yield self.finding(ctx, w.start, w.end, "NVIDIA architecture flags built by a make function: "
                                           f"hipcc takes AMD targets as {targets}; rewrite this by hand",
                                           severity=Severity.WARNING)
                i += 1
            if not groups:
                continue
            first, last = groups[0]
            edits = [Edit(words[first].start, words[last].end, targets)]
            floor = line.start + (1 if line.kind == "recipe" else 0)
            edits += [drop(ctx.data, floor, words[a].start, words[b].end) for a, b in groups[1:]]
            flags = ", ".join(" ".join(w.text for w in words[a:b + 1]) for a, b in groups)
            yield self.finding(ctx, words[first].start, words[groups[-1][1]].end,
                               f"nvcc architecture flags ({flags}) name NVIDIA GPUs: hipcc builds for AMD targets "
                               "given with --offload-arch", edits=edits, title=f"Use {targets}")

    @staticmethod
    def _flag_size(words, i) -> int:
        """How many words the architecture flag at words[i] takes (0: not one)."""
        m = FLAG.match(words[i].text)
        if not m:
            return 0
        value = m.group(2)
        size = 1
        if value is None:
            if i + 1 >= len(words):
                return 0
            value, size = words[i + 1].text, 2
        if m.group(1) in ("-arch", "--gpu-architecture") and not NVIDIA_ARCH.match(value):
            return 0
        if any(w.text.count(q) % 2 for w in words[i:i + size] for q in "'\""):
            return 0  # a quote left open runs on over the words after it: replacing it would change what they are
        return size
