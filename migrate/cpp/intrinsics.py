"""CUDA intrinsics that HIP's headers lack and that hipmigrate writes itself: the block migrate/cpp/intrinsics_shim.h
(namespace NAMESPACE), which CPP060 writes into a file and whose names it qualifies. CPP006 leaves them to CPP060.
tests/test_intrinsics.py shows HIP 6.4 and 7.2 without them and the block compiling with both."""
import re

from migrate.cpp import blocks

NAMESPACE = "hipmigrate_intrinsics"
MARKER = "HIPMIGRATE_INTRINSICS"
LANES = ("abs", "absss", "neg", "negss", "absdiffs", "absdiffu", "add", "addss", "addus", "sub", "subss", "subus", "avgs",
         "avgu", "haddu", "maxs", "maxu", "mins", "minu", "sads", "sadu",
         *(f"{kind}{test}" for kind in ("cmp", "set")
           for test in ("eq", "ne", "ges", "geu", "gts", "gtu", "les", "leu", "lts", "ltu")))
NAMES = frozenset({f"__v{name}{width}" for name in LANES for width in (2, 4)}
                  | {"__dp4a", "__dp2a_lo", "__dp2a_hi", "__double2half", "atomicInc_system", "atomicDec_system"})
CALL = re.compile(rb"(?<![\w:.>])(__v[a-z]+[24]|__dp4a|__dp2a_lo|__dp2a_hi|__double2half|atomic(?:Inc|Dec)_system)\s*\(")


def owned(name: str) -> bool:
    return name in NAMES


def block(newline: str = "\n") -> str:
    """The intrinsics, as the block CPP060 writes into a file (guarded by MARKER)."""
    return blocks.text("intrinsics_shim.h", newline)
