"""CUDA's persisting-L2 controls (`cudaLimitPersistingL2CacheSize`, `cudaCtxResetPersistingL2Cache`), which HIP lacks:
written for AMD GPUs, which have no persisting L2.

From Ampere on, CUDA can set part of the L2 aside for accesses marked persisting: `cudaDeviceSetLimit(
cudaLimitPersistingL2CacheSize, bytes)` asks for the set-aside size, `cudaDeviceGetLimit` reports what the driver
granted (it may clamp a limit), and `cudaCtxResetPersistingL2Cache()` demotes the persisting lines to normal ones. HIP
has neither name, though it fills `hipDeviceProp_t::persistingL2CacheMaxSize` (with the whole L2's size), so code
that checks that field before asking goes on to ask. The first use in a file gets, after the includes before it, a
block (namespace `hipmigrate_runtime`, HIP's spelling) where:
- `hipLimitPersistingL2CacheSize` is a `hipLimit_t` with CUDA's value (6), which none of HIP's limits has;
- `hipDeviceSetLimit` grants that limit as 0, with `hipSuccess`, whatever size is asked for (nothing is set aside),
  and `hipDeviceGetLimit` reports 0 for it; every other limit goes to HIP's own functions;
- `hipCtxResetPersistingL2Cache` returns `hipSuccess`: no line persists, so none is reset.

Each name is qualified with the namespace, and so is a `cudaDeviceSetLimit` or `cudaDeviceGetLimit` call whose limit
argument is the name (the packs rename the call, and the namespace's overload is the one called). The limit used
anywhere else (kept in a variable, passed to a wrapper) may reach HIP's own functions, which refuse it
(`hipErrorUnsupportedLimit`): a warning there. hipLimit_t holds the value 6 from HIP 7, so for an older target the
limit is reported, unfixed; the reset is written for every target. A name the project declares or defines itself is
its own.
"""
from migrate.cpp import blocks
from migrate.cpp.calls import api_arguments
from migrate.cpp.l2_persistence import LIMIT, LIMIT_CALLS, MARKER, NAME, NAMES, NAMESPACE, SINCE, block
from migrate.cpp.parse import declares
from migrate.cpp.spelling import hip_spelling
from migrate.model import Edit, Severity
from migrate.rule import CppRule, Invalid, Valid

SET = ("#include <cuda_runtime.h>\n"
       "void setup(const cudaDeviceProp& prop) {\n"
       "    cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, prop.persistingL2CacheMaxSize);\n"
       "    cudaCtxResetPersistingL2Cache();\n}\n")
SET_HIP = SET.split("\n", 1)[1].replace("cudaDeviceProp", "hipDeviceProp_t")
GET = ("#include <cuda_runtime.h>\n"
       "#define CHECK(x) x\n"
       "size_t persisting() {\n"
       "    size_t bytes = 0;\n"
       "    CHECK(cudaDeviceGetLimit(&bytes, cudaLimitPersistingL2CacheSize));\n"
       "    return bytes;\n}\n")
PASSED = ("#include <cuda_runtime.h>\n"
          "cudaError_t ask(cudaLimit which, size_t bytes);\n"
          "cudaError_t l2(size_t bytes) { return ask(cudaLimitPersistingL2CacheSize, bytes); }\n")
Q = NAMESPACE + "::"


class L2Persistence(CppRule):
    code = "CPP067"
    examples = [
        Invalid(SET, line=3,
                fixed="#include <cuda_runtime.h>\n" + block() + "\n"
                + SET_HIP.replace("cudaDeviceSetLimit", Q + "hipDeviceSetLimit")
                .replace("cudaLimitPersistingL2CacheSize", Q + "hipLimitPersistingL2CacheSize")
                .replace("cudaCtxResetPersistingL2Cache", Q + "hipCtxResetPersistingL2Cache"),
                message="HIP has no cudaLimitPersistingL2CacheSize: hipmigrate_runtime::hipDeviceSetLimit grants "
                        "hipmigrate_runtime::hipLimitPersistingL2CacheSize as 0 (AMD GPUs have no persisting L2: "
                        "nothing is set aside)"),
        Invalid("void demote() { cudaCtxResetPersistingL2Cache(); }\n", line=1,
                fixed=block() + "\nvoid demote() { hipmigrate_runtime::hipCtxResetPersistingL2Cache(); }\n",
                message="HIP has no cudaCtxResetPersistingL2Cache: hipmigrate_runtime::hipCtxResetPersistingL2Cache "
                        "returns hipSuccess (AMD GPUs have no persisting L2: nothing to reset)"),
        Invalid(GET, line=5,
                fixed="#include <cuda_runtime.h>\n" + block() + "\n" + GET.split("\n", 1)[1]
                .replace("cudaDeviceGetLimit", Q + "hipDeviceGetLimit")
                .replace("cudaLimitPersistingL2CacheSize", Q + "hipLimitPersistingL2CacheSize"),
                message="HIP has no cudaLimitPersistingL2CacheSize: hipmigrate_runtime::hipDeviceGetLimit reports "
                        "0 for hipmigrate_runtime::hipLimitPersistingL2CacheSize (AMD GPUs have no persisting L2: "
                        "nothing is set aside)"),
        Invalid(PASSED, line=3,
                fixed="#include <cuda_runtime.h>\n" + block() + "\n" + PASSED.split("\n", 1)[1]
                .replace("cudaError_t", "hipError_t").replace("cudaLimit which", "hipLimit_t which")
                .replace("cudaLimitPersistingL2CacheSize", Q + "hipLimitPersistingL2CacheSize"),
                message="HIP has no cudaLimitPersistingL2CacheSize: hipmigrate_runtime::hipLimitPersistingL2CacheSize "
                        "has CUDA's value, which HIP's own hipDeviceSetLimit and hipDeviceGetLimit refuse "
                        "(hipErrorUnsupportedLimit): pass it to hipmigrate_runtime's"),
        Invalid(SET, line=3, options=(("hip_version", "6.4"),),
                fixed="#include <cuda_runtime.h>\n" + block() + "\n"
                + SET_HIP.replace("cudaDeviceSetLimit", "hipDeviceSetLimit")
                .replace("cudaCtxResetPersistingL2Cache", Q + "hipCtxResetPersistingL2Cache"),
                message="HIP has no cudaLimitPersistingL2CacheSize, and hipLimit_t holds CUDA's value for it from "
                        "HIP 7.0, not in HIP 6.4"),
        # what the block already gives, and a project's own names
        Valid("void f(size_t n) {\n"
              "    hipmigrate_runtime::hipDeviceSetLimit(hipmigrate_runtime::hipLimitPersistingL2CacheSize, n);\n"
              "    hipmigrate_runtime::hipCtxResetPersistingL2Cache();\n}\n"),
        Valid("struct Limits { size_t cudaLimitPersistingL2CacheSize; };\n"
              "int cudaCtxResetPersistingL2CacheTwice();\n"
              "size_t f(Limits l) {\n"
              "    return l.cudaLimitPersistingL2CacheSize + cudaCtxResetPersistingL2CacheTwice();\n}\n"),
        Valid("#define cudaCtxResetPersistingL2Cache() 0\nint f() { return cudaCtxResetPersistingL2Cache(); }\n"),
    ]

    def check(self, ctx):
        if b"PersistingL2Cache" not in ctx.data:
            return
        present, sites = blocks.sites(ctx, NAME, MARKER)
        own = _own(ctx) if sites else set()
        sites = [m for m in sites if m.group(1).decode() not in own]
        old = ctx.target_tuple < SINCE  # the limit is reported, unfixed; the reset is written all the same
        written = [m for m in sites if not old or m.group(1) != LIMIT.encode()]
        insert = [blocks.place(ctx, written[0].start(), block(ctx.newline))] if written and not present else []
        calls = _limit_calls(ctx) if sites and not old else {}
        for m in sites:
            name = m.group(1).decode()
            hip = hip_spelling(name)
            qualified = Edit(m.start(1), m.end(1), Q + hip)
            if name != LIMIT:
                yield self.finding(ctx, m.start(1), m.end(1), f"HIP has no {name}: {Q}{hip} returns hipSuccess (AMD "
                                   "GPUs have no persisting L2: nothing to reset)", edits=[*insert, qualified],
                                   title=f"Use {Q}{hip}")
                continue
            if old:
                release = ".".join(map(str, ctx.target_tuple))
                yield self.finding(ctx, m.start(1), m.end(1), f"HIP has no {name}, and hipLimit_t holds CUDA's value "
                                   f"for it from HIP {SINCE[0]}.{SINCE[1]}, not in HIP {release}",
                                   severity=Severity.ERROR)
                continue
            call = calls.get(m.start(1))
            if call is None:
                yield self.finding(ctx, m.start(1), m.end(1), f"HIP has no {name}: {Q}{hip} has CUDA's value, which "
                                   "HIP's own hipDeviceSetLimit and hipDeviceGetLimit refuse "
                                   f"(hipErrorUnsupportedLimit): pass it to {NAMESPACE}'s", edits=[*insert, qualified],
                                   title=f"Use {Q}{hip}", severity=Severity.WARNING)
                continue
            callee, at = call
            what = "grants {} as 0" if callee == "cudaDeviceSetLimit" else "reports 0 for {}"
            yield self.finding(ctx, m.start(1), m.end(1), f"HIP has no {name}: {Q}{hip_spelling(callee)} "
                               f"{what.format(Q + hip)} (AMD GPUs have no persisting L2: nothing is set aside)",
                               edits=[*insert, Edit(at, at, Q), qualified], title=f"Use {Q}{hip}")


def _own(ctx) -> set[str]:
    """The names of NAMES that the file declares or defines itself, or that the project's headers do."""
    return {t.name for t in ctx.code_tokens() if t.name in NAMES and declares(t)} | (NAMES & ctx.defined_macros)


def _limit_calls(ctx) -> dict[int, tuple[str, int]]:
    """For each cudaDeviceSetLimit or cudaDeviceGetLimit call (plain or `::`-qualified) whose limit argument is a name
    alone: the argument's offset -> (the call's name, the offset where that name starts)."""
    return {token.base + arg.start_byte: (token.name, token.start)
            for token, arg in api_arguments(ctx, LIMIT_CALLS) if arg.type == "identifier"}
