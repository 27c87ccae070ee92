"""A program whose sources use NVTX linked without roctx.

NVTX 3 is header-only on CUDA: a Makefile builds an NVTX-annotated program with no NVTX library on its link line
(CUDA 12.9 and 13 ship no libnvToolsExt at all). Its HIP counterpart, roctx, is a library (libroctx64, from
roctracer), so the migrated program fails to link with undefined roctxRangePushA, roctxRangePop and roctxMarkA. When
the project's C++ sources include an NVTX header, each Makefile recipe that links a program with nvcc or hipcc
(an `-o` and no `-c`) and names no roctx or NVTX library gets `-lroctx64` at its end.
"""
from migrate.buildfiles.make import runs_hip_compiler
from migrate.model import Edit, Severity
from migrate.rule import MakeRule, Invalid, Valid

NVTX = (("needed_libraries", frozenset({"roctx64"})),)
ALREADY = {"-lroctx64", "-lnvToolsExt", "-lnvtx3interop"}


class NvtxLibraryNotLinked(MakeRule):
    code = "BLD110"
    severity = Severity.INFO
    examples = [
        Invalid("train: train.cu\n\tnvcc -O2 -o $@ $< -lnccl\n", fixed="train: train.cu\n\tnvcc -O2 -o $@ $< -lnccl -lroctx64\n",
                line=2, options=NVTX,
                message="the sources use NVTX, whose ROCm counterpart roctx is a library: -lroctx64 added to this link"),
        Invalid("app: main.o k.o\n\t$(NVCC) $(FLAGS) -o app main.o k.o\n",
                fixed="app: main.o k.o\n\t$(NVCC) $(FLAGS) -o app main.o k.o -lroctx64\n", options=NVTX),
        Valid("train: train.cu\n\tnvcc -O2 -o $@ $< -lnccl\n"),  # no NVTX in the sources
        Valid("k.o: k.cu\n\tnvcc -c -o $@ $<\n", options=NVTX),  # a compile, not a link
        Valid("train: train.cu\n\tnvcc -o $@ $< -lnvToolsExt\n", options=NVTX),  # BLD105 renames it
        Valid("clean:\n\trm -f train\n", options=NVTX),
    ]

    def check(self, ctx):
        if "roctx64" not in ctx.options.needed_libraries:
            return
        assigned = {line.variable: [w.text for w in line.words] for line in ctx.lines if line.kind == "assign"}
        for line in ctx.lines:
            if line.kind != "recipe" or not line.words or not runs_hip_compiler(line.words[0].text, assigned):
                continue
            texts = [w.text for w in line.words]
            if "-o" not in texts or "-c" in texts or ALREADY & set(texts):
                continue
            end = line.words[-1].end
            yield self.finding(ctx, line.words[0].start, end, "the sources use NVTX, whose ROCm counterpart roctx is a "
                               "library: -lroctx64 added to this link", edits=[Edit(end, end, " -lroctx64")],
                               title="Link -lroctx64")
