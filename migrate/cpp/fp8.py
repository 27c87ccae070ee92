"""Which of HIP's two fp8 families a migration writes, from the AMD targets it builds for.

CUDA's `__nv_fp8_e4m3`/`__nv_fp8_e5m2` are the OCP formats. HIP 6.4's amd_hip_fp8.h has both families, but per
target: only the FNUZ ones (`__hip_fp8_e4m3_fnuz`, ...) when compiling for gfx940-gfx942 (MI300, whose hardware
computes in FNUZ), only the OCP ones (`__hip_fp8_e4m3`, ...) for gfx1200/gfx1201 (RDNA4), and both for the others
(gfx950, MI350/MI355X, computes in OCP). The packs map to FNUZ, the MI300 choice; where no target is an MI300 one
and the HIP is 6.4 or later, the OCP names are written instead: the same formats as CUDA's, the same numbers.
"""
from __future__ import annotations

FNUZ_ONLY = frozenset({"gfx940", "gfx941", "gfx942"})
OCP_ONLY = frozenset({"gfx1200", "gfx1201"})
OCP_SINCE = (6, 4)
FNUZ_TO_OCP = {f"__hip_fp8{vec}_{kind}_fnuz": f"__hip_fp8{vec}_{kind}" for vec in ("", "x2", "x4")
               for kind in ("e4m3", "e5m2")}


def bases(targets) -> set[str]:
    return {t.split(":", 1)[0] for t in targets}


def ocp(ctx) -> bool:
    """Write HIP's OCP fp8 types: HIP 6.4 or later, and no MI300 (FNUZ-only) target."""
    return ctx.target_tuple >= OCP_SINCE and not (bases(ctx.targets) & FNUZ_ONLY)


def conflicting(ctx) -> tuple[str, str] | None:
    """(an FNUZ-only target, an OCP-only target) when the targets need both families: no one type serves them."""
    names = bases(ctx.targets)
    fnuz, ocp_only = sorted(names & FNUZ_ONLY), sorted(names & OCP_ONLY)
    return (fnuz[0], ocp_only[0]) if fnuz and ocp_only else None
