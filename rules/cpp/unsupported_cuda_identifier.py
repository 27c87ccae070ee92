"""A CUDA API identifier with no HIP counterpart in the packs.

It is left exactly as it is, never guessed, and reported with its place so that someone ports it by
hand. Names the project defines itself (its own macros, names in its own namespaces and classes, and any
function, type, variable or parameter the file declares, at the declaration and at every use: NVIDIA's
samples name variables `cudaBlockSize` and `cuArray`) are not CUDA API and are not reported. cuDNN's names are
CPP033's, which says which MIOpen concept to use; a `case` label on a CUDA value HIP lacks is CPP043's, which
removes the case. In a helper that CPP049 compiles for NVIDIA only, the name no longer stops the AMD build: a
warning there, and the helper's calls are CPP050's blockers.
"""
from migrate.cpp.guarded_helpers import analysis, inside
from migrate.cpp.unsupported import case_label, unsupported
from migrate.model import RuleKind, Severity
from migrate.rule import CppRule, Invalid, Valid


class UnsupportedCudaIdentifier(CppRule):
    code = "CPP006"
    kind = RuleKind.MAPPING
    severity = Severity.ERROR  # a name the HIP headers do not declare stops the build: a blocker
    fixable = False
    examples = [
        Invalid("void f(int g) { cudaDeviceFlushGPUDirectRDMAWrites(cudaFlushGPUDirectRDMAWritesTargetCurrentDevice,\n"
                "                                                    cudaFlushGPUDirectRDMAWritesToOwner); }", line=1,
                message="cudaDeviceFlushGPUDirectRDMAWrites has no HIP counterpart: left unchanged, port it by hand"),
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
        found = unsupported(ctx)
        helpers = [h for h in analysis(ctx).helpers if not h.guarded] if found else []
        for token, known in found:
            if known is not None and case_label(token):
                continue  # CPP043 removes the case
            name = token.name
            if known is not None:
                message = f"{name} has no HIP counterpart: left unchanged, port it by hand"
            else:
                message = f"{name} looks like CUDA API but no pack knows it: left unchanged, port it by hand"
            helper = inside(helpers, token.start) if helpers else None
            if helper is not None:
                message += f"; {helper.name} is compiled for NVIDIA only (CPP049), so only its calls stop the AMD build"
            yield self.finding(ctx, token.start, token.end, message, family=known.family if known else "",
                               severity=Severity.WARNING if helper is not None else None)
