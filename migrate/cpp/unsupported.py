"""The CUDA identifiers of a file that have no HIP counterpart: what CPP006 reports, and what CPP043 takes out of
`case` labels. Names the project defines itself, names other rules own and version gates are not among them."""
from migrate.cpp import (absent_features, bf16_conversions, blas_algorithms, blas_emulation, blas_extensions,
                         carveout, cudnn, device_builtins, integer_min_max, intrinsics, l2_persistence, nvtx_shim, solver64)
from migrate.cpp.context import CUDA_LOOKING
from migrate.cpp.parse import CALLBACK_MACROS, CUDA_ONLY_MACROS, declares, directive_condition


def unsupported(ctx) -> list:
    """(token, the packs' unsupported entry or None where the name only looks like CUDA API), in file order; worked
    out once per file for both rules."""
    return ctx.once("unsupported", lambda c: list(_unsupported(c)))


def _unsupported(ctx):
    packs, macros = ctx.packs, ctx.defined_macros
    own = {t.name for t in ctx.code_tokens() if t.name not in packs.names and declares(t)}
    for token in ctx.code_tokens():
        name = token.name
        if (name in packs.names or name in packs.by_hip or name in macros or name in CALLBACK_MACROS or name in own
                or name in nvtx_shim.NAMES or name in integer_min_max.TYPES or name in device_builtins.BUILTINS
                or cudnn.canonical(name) is not None or (blas_algorithms.owned(name) and not case_label(token))
                or blas_emulation.owned(name) or blas_extensions.owned(name) or intrinsics.owned(name)
                or solver64.owned(name) or name in carveout.VALUES
                or l2_persistence.owned(name) or (name == "CubDebugExit" and token.base == 0)
                or (name in absent_features.ATTRIBUTES and absent_features.inside_answered(ctx, token.start))
                or (ctx.target_tuple >= bf16_conversions.SINCE and bf16_conversions.NAMES.fullmatch(name.encode()))):
            continue  # CALLBACK_MACROS: CPP010 removes them; NVTX's richer API: CPP025 declares it on roctx; cuDNN's
            # names without a MIOpen row: CPP033; bf16 conversions HIP lacks: CPP026; umin and the like: CPP047; __trap: CPP048;
            # cuBLAS's algorithm choices: CPP055; its emulation settings: CPP058; intrinsics hipmigrate writes: CPP060;
            # cuSOLVER's 64-bit functions: CPP064; cuBLAS extensions: CPP065; persisting L2: CPP067; carveout
            # values: CPP069; attributes of features AMD lacks: CPP073; CUB's CubDebugExit: CPP076
        known = packs.unsupported.get(name)
        if known is None and not CUDA_LOOKING.match(name):
            continue
        if name in CUDA_ONLY_MACROS and token.node is not None and token.base == 0 \
                and directive_condition(token.node) is not None:
            continue  # a version gate, which HAZ018 reports
        yield token, known


def case_label(token) -> bool:
    """Whether the token is the whole value of a `case` label in the file's own tree (not in a macro body)."""
    node = token.node
    return (token.base == 0 and node is not None and node.parent is not None and node.parent.type == "case_statement"
            and node.parent.child_by_field_name("value") == node)
