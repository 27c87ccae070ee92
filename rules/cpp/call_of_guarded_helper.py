"""A call of a helper that CPP049 compiled for NVIDIA only, in code a HIP build for AMD compiles.

Once `get_cusolver_refinement_solver` (which needs cuSOLVER's iterative refinement) is guarded out of AMD builds in
the shared header, the samples that never call it compile, and the one that does stops at its call: "use of undeclared
identifier". This is that blocker, at the call, with where the helper is and what it needs. The helpers come from
the headers migrated in the same run (a first wave, migrate/stages/rewrite.py) and from the file itself. Where
another declaration of the name stays compiled (an overload, a template's other specialisations) the call may reach
that one: a warning, not a blocker.
"""
from migrate.cpp import platform
from migrate.cpp.guarded_helpers import analysis, calls, calls_pattern, inside, where
from migrate.model import Severity
from migrate.rule import CppRule, Invalid, Valid

WHERE = "utils.h:3, where it uses cudaGraphConditionalHandle, which HIP lacks"
ELSEWHERE = (("guarded_helpers", (("workspace", WHERE, ""),)),)


def message(name: str, place: str) -> str:
    return (f"{name} is compiled for NVIDIA only after migration ({place}): this call stops the AMD build; port the "
            "helper, or guard this code with it")


class CallOfGuardedHelper(CppRule):
    code = "CPP050"
    severity = Severity.ERROR
    fixable = False
    examples = [
        Invalid("size_t workspace(int m, int c);\nint main() { return (int)workspace(4, 0); }\n", options=ELSEWHERE,
                line=2, message=message("workspace", WHERE)),
        Invalid("const char *name(cublasLtMatmulTile_t t) { return \"t\"; }\nvoid show() { puts(name({})); }\n",
                line=2),
        Valid("int main() { return 0; }\n// workspace(4, 0) is not called\n", options=ELSEWHERE),
        Valid("#ifndef __HIP_PLATFORM_AMD__\nint w = workspace(4, 0);\n#endif\n", options=ELSEWHERE),
        Valid("struct S { size_t workspace(int); };\nint f(S s) { return s.workspace(2); }\n", options=ELSEWHERE),
    ]

    def check(self, ctx):
        own = analysis(ctx)
        known = {h.name: (where(ctx.path, h.line, h.why, h.calls), h.name in own.overloaded) for h in own.helpers}
        for name, place, overloaded in ctx.options.guarded_helpers:
            if name not in known:
                known[name] = (place, bool(overloaded) or name in own.kept)
        if not known or not any(name.encode() in ctx.data for name in known):
            return
        skipped = platform.skipped(ctx)
        for name, start, end in calls(ctx, calls_pattern(known), 0, len(ctx.data), skipped):
            if inside(own.helpers, start) is not None:
                continue  # guarded with the helper (or, in a later run, already out of the AMD build)
            place, overloaded = known[name]
            text = message(name, place)
            if overloaded:
                text += "; another declaration of the name stays, which the call may reach"
            yield self.finding(ctx, start, end, text, severity=Severity.WARNING if overloaded else None)
