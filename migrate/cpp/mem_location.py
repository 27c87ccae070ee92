"""CUDA 13's managed-memory calls that take a `cudaMemLocation` where CUDA 12's took a device number:
`cudaMemPrefetchAsync(p, n, location, flags[, stream])` and `cudaMemAdvise(p, n, advice, location)`. HIP keeps the
device-number forms under the old names and has the location forms as `hipMemPrefetchAsync_v2` and `hipMemAdvise_v2`
(declared by HIP 7.2's headers, not by 6.4's). Read by CPP054, which writes the `_v2` name, and by CPP015, which
leaves these calls to it."""
from __future__ import annotations

from migrate.cpp.declared import declared_with

# CUDA's (or HIP's) name -> (the argument that holds the location, the argument count that only the location form has)
CALLS = {"cudaMemPrefetchAsync": (2, 5), "hipMemPrefetchAsync": (2, 5), "cudaMemAdvise": (3, None),
         "hipMemAdvise": (3, None)}
TYPES = frozenset({b"cudaMemLocation", b"hipMemLocation"})
SINCE = (7, 2)


def location_form(ctx, name: str, args) -> bool:
    """Whether a call of `name` with the argument nodes `args` passes a memory location: the count only that form
    takes, a braced or `...MemLocation...` argument, or a variable the file declares as one."""
    where, only = CALLS[name]
    if len(args) == only:
        return True
    if len(args) <= where:
        return False
    text = args[where].text.decode("utf-8", "surrogateescape").strip()
    if text.startswith("{") or "MemLocation" in text:
        return True
    base = text.split("[", 1)[0].split(".", 1)[0].strip().lstrip("*&(").strip()
    return base.encode() in ctx.once("mem_locations", lambda c: declared_with(c, TYPES))
