"""CUDA's runtime and driver libraries linked by name in a Makefile: `-lcudart`, `-lcudart_static`,
`-lcuda`, `-lculibos`, `-lcudadevrt`.

The HIP runtime and the driver-style `hipModule*`/`hipCtx*` functions are all in libamdhip64, which
hipcc links by itself. Where the flag goes to hipcc (a recipe run by `$(NVCC)`, nvcc or hipcc, or a
variable that only such recipes use) it is removed. Where something else links (`$(CXX)`, `$(CC)`,
make's built-in rules through `LDLIBS`, or a variable no recipe in this file uses), the first one
becomes `-lamdhip64` so that link still finds the runtime; together with a `-L` to ROCm's `lib`
(see BLD106/BLD107). `-lculibos` is a helper of CUDA's static libraries with no ROCm counterpart.
`-lcudadevrt` is the device runtime of dynamic parallelism (kernels launching kernels), which HIP
does not support: it is removed with a warning, and the device-side launches need restructuring.
"""
import re

from migrate.buildfiles.make import drop, runs_hip_compiler
from migrate.model import Edit, Severity
from migrate.rule import MakeRule, Invalid, Valid

LIBRARIES = {"-lcudart": "the CUDA runtime", "-lcudart_static": "the static CUDA runtime",
             "-lcuda": "the CUDA driver API", "-lculibos": "a helper of CUDA's static libraries",
             "-lcudadevrt": "the device runtime of dynamic parallelism"}
RUNTIME = ("-lcudart", "-lcudart_static", "-lcuda")
REF = re.compile(r"\$[({]([A-Za-z_][\w.-]*)[)}]")
IMPLICIT = {"LDLIBS", "LOADLIBES", "LDFLAGS"}  # read by make's built-in link rules, which run $(CC)


class CudaRuntimeLinkFlag(MakeRule):
    code = "BLD104"
    examples = [
        Invalid("LIBS := -lcublas -lcudart\napp: app.cu\n\t$(NVCC) -o $@ $< $(LIBS)\n",
                fixed="LIBS := -lcublas\napp: app.cu\n\t$(NVCC) -o $@ $< $(LIBS)\n", line=1),
        Invalid("app: app.cu\n\tnvcc -o $@ $< -lcuda -lcudart_static -lculibos\n",
                fixed="app: app.cu\n\tnvcc -o $@ $<\n", line=2),
        Invalid("app: main.o kernels.o\n\t$(CXX) -o $@ $^ -L$(ROCM_PATH)/lib -lcudart -lcuda\n",
                fixed="app: main.o kernels.o\n\t$(CXX) -o $@ $^ -L$(ROCM_PATH)/lib -lamdhip64\n"),
        Invalid("LDLIBS += -lcudart\n", fixed="LDLIBS += -lamdhip64\n"),
        Invalid("NVCCFLAGS = -rdc=true\nLIBS = -lcudadevrt\nall:\n\tnvcc $(NVCCFLAGS) -o app app.cu $(LIBS)\n",
                fixed="NVCCFLAGS = -rdc=true\nLIBS =\nall:\n\tnvcc $(NVCCFLAGS) -o app app.cu $(LIBS)\n",
                message="-lcudadevrt is the device runtime of dynamic parallelism, which HIP does not support: "
                        "removed; kernels that launch kernels must be restructured"),
        Valid("LIBS := -lhipblas\n"),
        Valid("LIBS := -lcudnn -lcudart_wrapper\n"),
        Valid("# LIBS := -lcudart\n"),
    ]

    def check(self, ctx):
        assigned: dict[str, list[str]] = {}
        for line in ctx.lines:
            if line.kind == "assign":
                assigned.setdefault(line.variable, []).extend(w.text for w in line.words)
        users: dict[str, bool] | None = None
        for line in ctx.lines:
            if line.kind == "recipe" and line.words:
                hip = runs_hip_compiler(line.words[0].text, assigned)
            elif line.kind == "assign":
                users = self._users(ctx, assigned) if users is None else users
                hip = self._only_hip_users(line.variable, assigned, users)
            else:
                continue
            runtime_kept = False
            floor = line.start + (1 if line.kind == "recipe" else 0)
            for word in line.words:
                what = LIBRARIES.get(word.text)
                if what is None:
                    continue
                if word.text == "-lcudadevrt":
                    yield self.finding(ctx, word.start, word.end, f"-lcudadevrt is {what}, which HIP does not "
                                       "support: removed; kernels that launch kernels must be restructured",
                                       severity=Severity.WARNING, edits=[drop(ctx.data, floor, word.start, word.end)],
                                       title="Remove -lcudadevrt")
                elif word.text in RUNTIME and not hip and not runtime_kept:
                    runtime_kept = True
                    yield self.finding(ctx, word.start, word.end, f"{word.text} links {what}: HIP's runtime, driver "
                                       "functions included, is libamdhip64; this link does not go through hipcc, so "
                                       "it is named", edits=[Edit(word.start, word.end, "-lamdhip64")],
                                       title="Link -lamdhip64")
                else:
                    why = ("hipcc links HIP's runtime (libamdhip64, driver functions included) by itself"
                           if word.text in RUNTIME else "ROCm has no counterpart and needs none")
                    yield self.finding(ctx, word.start, word.end, f"{word.text} links {what}: {why}",
                                       edits=[drop(ctx.data, floor, word.start, word.end)], title=f"Remove {word.text}")

    @staticmethod
    def _users(ctx, assigned: dict[str, list[str]]) -> dict[str, bool]:
        """For each variable a recipe uses: whether every recipe that uses it runs nvcc or hipcc."""
        users: dict[str, bool] = {}
        for line in ctx.lines:
            if line.kind == "recipe" and line.words:
                hip = runs_hip_compiler(line.words[0].text, assigned)
                for name in REF.findall(line.text):
                    users[name] = users.get(name, True) and hip
        return users

    @staticmethod
    def _only_hip_users(variable: str, assigned: dict[str, list[str]], users: dict[str, bool]) -> bool:
        """Whether every recipe that uses `variable` (directly or through other variables) runs nvcc or hipcc;
        False when none does (the variable is used elsewhere, or by make's built-in rules)."""
        names, grew = {variable}, True
        while grew:
            grew = False
            for name, words in assigned.items():
                if name not in names and any(n in names for w in words for n in REF.findall(w)):
                    names.add(name)
                    grew = True
        if names & IMPLICIT:
            return False
        used = [users[n] for n in names if n in users]
        return bool(used) and all(used)
