"""What CUDA's warp-synchronous calls without an older HIP name become before HIP 7.0, where HIP has neither
`__activemask` (declared in 6.2-6.4 only behind -DHIP_ENABLE_WARP_SYNC_BUILTINS) nor `__syncwarp` (first in 7.0).
Rule CPP020 writes these; CPP005 leaves the names to it."""
from __future__ import annotations

import re

# a lane mask that names every lane: 0xffffffff (CUDA's, 32 lanes), its 64-bit form, ~0, -1, __activemask()
FULL_MASK = re.compile(r"^\(?\s*(?:0x[fF]{8}(?:[fF]{8})?[uUlL]*|~0[uUlL]*|-1|~\(?0[uUlL]*\)?|__activemask\(\s*\))\s*\)?$")

SINCE = (7, 0)
# HIP's own definition of __activemask (amd_warp_functions.h): lanes of a wavefront run in lockstep, so the active
# lanes are those for which a ballot of true is set.
ACTIVEMASK = "__ballot(1)"
# __syncwarp as HIP 7 defines it for AMD: a wavefront-scope release fence, the wave barrier (a point no code moves
# across), and an acquire fence; the builtins exist in every clang that HIP 5.2 and later use.
SYNCWARP = ('__builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront"), __builtin_amdgcn_wave_barrier(), '
            '__builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront")')
REWRITTEN = frozenset({"__activemask", "__syncwarp"})
