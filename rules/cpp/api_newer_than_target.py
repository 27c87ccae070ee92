"""A HIP API that the target HIP version does not have yet.

Packs record the first HIP release that declares each name; a name already in the oldest release
inspected of its library (the pack's `inspected_from`) is never called too new, since it may be older. When `--hip-version` is older, the older
equivalent is used where one exists (`__shfl_down_sync(mask, v, d)` becomes `__shfl_down(v, d)` before
HIP 7.0, where the *_sync functions are on by default: the mask goes, as old HIP shuffles always involve
every active lane); when that older name is itself newer than the target (`hipblasCaxpy_v2`, hipBLAS 2's spelling
of what hipBLAS 3 calls `hipblasCaxpy`), the finding is a warning that names both releases. Otherwise the name is
kept and flagged: the result needs a newer HIP to build. The releases inspected are a few (5.2, 5.7, 6.4):
for a target between the last one that lacks the name and the first that has it, the message says that the
target's own headers decide.
"""
from migrate.cpp.calls import arguments, call_of, drop_argument
from migrate.cpp.warp_sync import FULL_MASK, REWRITTEN
from migrate.model import Severity
from migrate.packs import version_tuple
from migrate.rule import CppRule, Invalid, Valid

OLD = (("hip_version", "5.2"),)
NEW = (("hip_version", "6.2"),)
BF16 = "__device__ float f(__nv_bfloat16 a, __nv_bfloat16 b) { return __bfloat162float(__hmul(a, b)); }"


class ApiNewerThanTarget(CppRule):
    code = "CPP005"
    severity = Severity.WARNING
    examples = [
        Invalid("__device__ float f(float v) { return __shfl_down_sync(0xffffffff, v, 16); }",
                fixed="__device__ float f(float v) { return __shfl_down(v, 16); }", options=OLD),
        Invalid("__device__ int g(int v, unsigned m) { return __shfl_xor_sync(m, v, 1); }",
                fixed="__device__ int g(int v, unsigned m) { return __shfl_xor(v, 1); }",
                message="__shfl_xor_sync needs HIP 7.0 (target 5.2): mask 'm' dropped, so every active lane "
                        "takes part; check that the mask was full", options=OLD),
        Valid("__device__ float f(float v) { return __shfl_down_sync(0xffffffffffffffffull, v, 16); }",
              options=(("hip_version", "7.0"),)),
        Valid("__device__ float f(float v) { return __shfl_down(v, 16); }", options=OLD),
        # HIP 5.2 with its hipBLAS 0.54 headers declares it (scripts/probe_packs.py): no finding
        Valid("void f(cublasHandle_t* h) { cublasCreate(h); }", options=OLD),
        Invalid("void g(cublasHandle_t h) { cublasSetMathMode(h, CUBLAS_PEDANTIC_MATH); }", options=OLD,
                fixed="void g(hipblasHandle_t h) { hipblasSetMathMode(h, HIPBLAS_PEDANTIC_MATH); }",
                message="HIPBLAS_PEDANTIC_MATH needs HIP 6.4 (target 5.2): build with a newer HIP or pass "
                        "--hip-version 6.4"),
        # bfloat16: __hip_bfloat16 and CUDA's intrinsics come with HIP 5.7 (hip/hip_bf16.h); before, the type is
        # hip_bfloat16 and the intrinsics are missing. __hmul is not flagged: HIP 5.2 has it for __half (CPP008 looks
        # at its arguments).
        Invalid(BF16, options=OLD, fixed=BF16.replace("__nv_bfloat16", "hip_bfloat16"),
                message="__bfloat162float needs HIP 5.7 (target 5.2): build with a newer HIP or pass --hip-version 5.7"),
        Invalid(BF16, options=OLD, fixed=BF16.replace("__nv_bfloat16", "hip_bfloat16"),
                message="__hip_bfloat16 needs HIP 5.7 (target 5.2): hip_bfloat16 used instead"),
        Invalid("__device__ __nv_bfloat162 g(float2 v) { return __float22bfloat162_rn(v); }", options=OLD,
                fixed="__device__ __hip_bfloat162 g(float2 v) { return __float22bfloat162_rn(v); }",
                message="__hip_bfloat162 needs HIP 5.7 (target 5.2): build with a newer HIP or pass --hip-version 5.7"),
        Valid(BF16, options=NEW),
        Valid("__device__ __nv_bfloat162 g(float2 v) { return __float22bfloat162_rn(v); }", options=NEW),
        Invalid("__device__ __nv_bfloat16 h(__nv_bfloat16_raw r) { return __nv_bfloat16(r); }", options=NEW,
                fixed="__device__ __hip_bfloat16 h(__hip_bfloat16_raw r) { return __hip_bfloat16(r); }",
                message="__hip_bfloat16_raw needs HIP 6.4 (target 6.2): HIP 6.4's headers have it and 5.7's do not; "
                        "the releases between were not inspected, so check that HIP 6.2 has it, or pass "
                        "--hip-version 6.4"),
        # hipSPARSE 6.4 has it and 5.7 does not; 6.0-6.3 were not inspected
        Invalid("const char* f(cusparseStatus_t s) { return cusparseGetErrorString(s); }",
                fixed="const char* f(hipsparseStatus_t s) { return hipsparseGetErrorString(s); }",
                options=(("hip_version", "6.2"),),
                message="hipsparseGetErrorString needs HIP 6.4 (target 6.2): HIP 6.4's headers have it and 5.7's "
                        "do not; the releases between were not inspected, so check that HIP 6.2 has it, or pass "
                        "--hip-version 6.4"),
        # code that already names the HIP type: nothing older is put in its place
        Invalid("__device__ __hip_bfloat16 z;", options=OLD,
                message="__hip_bfloat16 needs HIP 5.7 (target 5.2): build with a newer HIP, pass --hip-version 5.7, "
                        "or use hip_bfloat16"),
        # hipBLAS 3.0 (ROCm 7.0) dropped `_v2`; the `_v2` spelling itself came with hipBLAS 2 (read at 6.4)
        Invalid("void f(cublasHandle_t h, const cuComplex* a, cuComplex* y) { cublasCaxpy(h, 1, a, y, 1, y, 1); }",
                fixed="void f(hipblasHandle_t h, const hipComplex* a, hipComplex* y) "
                      "{ hipblasCaxpy_v2(h, 1, a, y, 1, y, 1); }",
                message="hipblasCaxpy needs HIP 7.0 (target 5.2), and hipblasCaxpy_v2, used instead, HIP 6.4: build "
                        "with a newer HIP or pass --hip-version 6.4", options=OLD),
        Valid("void f(cublasHandle_t h, const cuComplex* a, cuComplex* y) { cublasCaxpy(h, 1, a, y, 1, y, 1); }",
              options=(("hip_version", "7.2"),)),
    ]

    def check(self, ctx):
        names, by_hip = ctx.packs.names, ctx.packs.by_hip
        warned = False
        for token in ctx.code_tokens():
            mapping = names.get(token.name) or by_hip.get(token.name)
            if mapping is None or not ctx.too_new(mapping) or mapping.hip in REWRITTEN:  # CPP020 rewrites those
                continue
            need = f"{mapping.hip} needs HIP {mapping.since} (target {ctx.target})"
            if mapping.older and token.name not in names:  # the HIP name itself: MAP000 puts nothing in its place
                yield self.finding(ctx, token.start, token.end, f"{need}: build with a newer HIP, pass --hip-version "
                                   f"{mapping.since}, or use {mapping.older}", family=mapping.family)
                continue
            if not mapping.older:
                advice = f"build with a newer HIP or pass --hip-version {mapping.since}"
                if mapping.lacking and version_tuple(mapping.lacking) < ctx.target_tuple:
                    advice = (f"HIP {mapping.since}'s headers have it and {mapping.lacking}'s do not; the releases "
                              f"between were not inspected, so check that HIP {ctx.target} has it, or pass "
                              f"--hip-version {mapping.since}")
                yield self.finding(ctx, token.start, token.end, f"{need}: {advice}", family=mapping.family)
                continue
            if mapping.older_since and version_tuple(mapping.older_since) > ctx.target_tuple:
                yield self.finding(ctx, token.start, token.end, f"{need}, and {mapping.older}, used instead, HIP "
                                   f"{mapping.older_since}: build with a newer HIP or pass --hip-version "
                                   f"{mapping.older_since}", family=mapping.family)
                continue
            call = call_of(token)
            if mapping.older_drop_arg < 0 or call is None:
                if mapping.older == "hip_bfloat16" and not warned:  # once a file: what the older type lacks
                    warned = True
                    yield self.finding(ctx, token.start, token.end, f"{need}: {mapping.older} used instead, which "
                                       "converts from float only explicitly (CPP016 writes hip_bfloat16(x) where a "
                                       "float is stored with =; conversions in calls and templates are left to you)",
                                       family=mapping.family)
                    continue
                yield self.finding(ctx, token.start, token.end, f"{need}: {mapping.older} used instead",
                                   severity=Severity.INFO, family=mapping.family)
                continue
            args = arguments(call)
            if mapping.older_drop_arg >= len(args):
                continue
            dropped = args[mapping.older_drop_arg].text.decode("utf-8", "surrogateescape")
            if FULL_MASK.match(dropped):
                message, severity = f"{need}: {mapping.older} used, full mask '{dropped}' dropped", Severity.INFO
            else:
                message, severity = (f"{need}: mask '{dropped}' dropped, so every active lane takes part; "
                                     "check that the mask was full", Severity.WARNING)
            yield self.finding(ctx, token.start, token.end, message, severity=severity, family=mapping.family,
                               edits=drop_argument(call, mapping.older_drop_arg, token.base),
                               title=f"Drop argument {mapping.older_drop_arg + 1} for {mapping.older}")
