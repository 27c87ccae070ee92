"""A CUDA API identifier with no HIP counterpart in the packs.

It is left exactly as it is, never guessed, and reported with its place so that someone ports it by
hand. Names the project defines itself (its own macros, names in its own namespaces and classes, and any
function, type, variable or parameter the file declares, at the declaration and at every use: NVIDIA's
samples name variables `cudaBlockSize` and `cuArray`) are not CUDA API and are not reported. cuDNN's names are
CPP033's, which says which MIOpen concept to use.
"""
from migrate.cpp import bf16_conversions, cudnn, nvtx_shim
from migrate.cpp.context import CUDA_LOOKING
from migrate.cpp.parse import CALLBACK_MACROS, CUDA_ONLY_MACROS, declares, directive_condition
from migrate.model import RuleKind, Severity
from migrate.rule import CppRule, Invalid, Valid


class UnsupportedCudaIdentifier(CppRule):
    code = "CPP006"
    kind = RuleKind.MAPPING
    severity = Severity.WARNING
    fixable = False
    examples = [
        Invalid("void f(int g) { cudaCtxResetPersistingL2Cache(); }", line=1,
                message="cudaCtxResetPersistingL2Cache has no HIP counterpart: left unchanged, port it by hand"),
        Invalid("int v = cudaNoSuchThing(1);", message="cudaNoSuchThing looks like CUDA API but no pack "
                "knows it: left unchanged, port it by hand"),
        Valid("#define CUDA_CHECK(x) x\nint a = CUDA_CHECK(1);"),
        Valid("int cuMyHelper(int x) { return x; }"),
        # a project's own variables and parameters, at every use
        Valid("int cudaBlockSize = 256;\nvoid f(float* cuArray) { k<<<1, cudaBlockSize>>>(cuArray); }"),
        Valid('const char* s = "cudaCtxResetPersistingL2Cache";'),
        Invalid('int v = CUDA_VERSION;', message="CUDA_VERSION has no HIP counterpart: left unchanged, port it by hand"),
    ]

    def check(self, ctx):
        packs, macros = ctx.packs, ctx.defined_macros
        own = {t.name for t in ctx.code_tokens() if t.name not in packs.names and declares(t)}
        for token in ctx.code_tokens():
            name = token.name
            if (name in packs.names or name in packs.by_hip or name in macros or name in CALLBACK_MACROS or name in own
                    or name in nvtx_shim.NAMES or cudnn.canonical(name) is not None
                    or (ctx.target_tuple >= bf16_conversions.SINCE and bf16_conversions.NAMES.fullmatch(name.encode()))):
                continue  # CALLBACK_MACROS: CPP010 removes them; NVTX's richer API: CPP025 declares it on roctx; cuDNN's
                # names without a MIOpen row: CPP033; bf16 conversions HIP lacks: CPP026
            known = packs.unsupported.get(name)
            if known is None and not CUDA_LOOKING.match(name):
                continue
            if name in CUDA_ONLY_MACROS and token.node is not None and token.base == 0 \
                    and directive_condition(token.node) is not None:
                continue  # a version gate, which HAZ018 reports
            if known is not None:
                message = f"{name} has no HIP counterpart: left unchanged, port it by hand"
            else:
                message = f"{name} looks like CUDA API but no pack knows it: left unchanged, port it by hand"
            yield self.finding(ctx, token.start, token.end, message, family=known.family if known else "")
