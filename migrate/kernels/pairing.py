"""Kernels of the two compiles paired by name. The demangled signature first (`scale<float, 64>(float*)`: template
instances apart); where migration changed a parameter type (`curandState*` -> `hiprandState*`) the signature
differs, so then the name with its template arguments and scope, where one kernel on each side has it."""
from __future__ import annotations

from collections import defaultdict

from migrate.kernels.demangle import signature, without_parameters
from migrate.kernels.model import Usage


def pair(cuda: list[Usage], amd: list[Usage]) -> list[tuple[str, Usage | None, Usage | None]]:
    """(name, CUDA usage, AMD usage) for every kernel of either side, CUDA's order first."""
    amd_by_sig = {signature(u.name): u for u in amd}
    taken: set[str] = set()
    out: list[tuple[str, Usage | None, Usage | None]] = []
    loose: list[Usage] = []
    for u in cuda:
        match = amd_by_sig.get(signature(u.name))
        if match is not None and match.mangled not in taken:
            taken.add(match.mangled)
            out.append((signature(u.name), u, match))
        else:
            loose.append(u)
    rest = [u for u in amd if u.mangled not in taken]
    by_short: dict[str, list[Usage]] = defaultdict(list)
    for u in rest:
        by_short[without_parameters(signature(u.name))].append(u)
    cuda_short = defaultdict(int)
    for u in loose:
        cuda_short[without_parameters(signature(u.name))] += 1
    for u in loose:
        short = without_parameters(signature(u.name))
        candidates = by_short.get(short, [])
        if len(candidates) == 1 and cuda_short[short] == 1:
            taken.add(candidates[0].mangled)
            out.append((signature(u.name), u, candidates[0]))
        else:
            out.append((signature(u.name), u, None))
    out.extend((signature(u.name), None, u) for u in rest if u.mangled not in taken)
    return out
