"""CUDA bfloat16 conversions that HIP's hip_bf16.h (5.7 to 6.4) lacks, and the expressions with the ones it has that
give the same value (rule CPP026 writes them; CPP006 leaves these names to it)."""
from __future__ import annotations

import re

SINCE = (5, 7)
INTEGERS = {"int": "int", "uint": "unsigned int", "short": "short", "ushort": "unsigned short", "ll": "long long",
            "ull": "unsigned long long", "char": "signed char", "uchar": "unsigned char"}
TO_BF16 = re.compile(r"__(int|uint|short|ushort|ll|ull)2bfloat16_(rn|rz|rd|ru)")
FROM_BF16 = re.compile(r"__bfloat162(int|uint|short|ushort|ll|ull|char|uchar)_(rn|rz|rd|ru)")
ROUND = {"rz": "{x}", "rn": "rintf({x})", "rd": "floorf({x})", "ru": "ceilf({x})"}
NAMES = re.compile(rb"\b(__float2bfloat16_rn|__floats2bfloat162_rn|__float2bfloat162_rn|"
                   rb"__(?:int|uint|short|ushort|ll|ull)2bfloat16_r[nzdu]|"
                   rb"__bfloat162(?:int|uint|short|ushort|ll|ull|char|uchar)_r[nzdu])\b")


def replacement(name: str, args: list[str]) -> tuple[str | None, str]:
    """(the expression, what to say) for a call of `name` with argument texts `args`; None: report only."""
    if name == "__float2bfloat16_rn" and len(args) == 1:
        return f"__float2bfloat16({args[0]})", "HIP's __float2bfloat16 rounds to nearest even, as _rn does"
    if name == "__floats2bfloat162_rn" and len(args) == 2:
        return (f"__halves2bfloat162(__float2bfloat16({args[0]}), __float2bfloat16({args[1]}))",
                "the same pair from HIP's conversions")
    if name == "__float2bfloat162_rn" and len(args) == 1:
        return f"__bfloat162bfloat162(__float2bfloat16({args[0]}))", "the same pair from HIP's conversions"
    m = TO_BF16.fullmatch(name)
    if m and len(args) == 1:
        if m.group(2) != "rn":
            return None, f"HIP has no directed rounding ({m.group(2)}) to bf16: convert with __double2bfloat16 " \
                         "(nearest even) if that will do"
        return f"__double2bfloat16((double)({args[0]}))", "exact in a double, rounded once to bf16"
    m = FROM_BF16.fullmatch(name)
    if m and len(args) == 1:
        value = ROUND[m.group(2)].format(x=f"__bfloat162float({args[0]})")
        return (f"({INTEGERS[m.group(1)]})({value})", "the bf16 value is exact in a float; out-of-range values and "
                "NaN, which CUDA saturates, are undefined in the conversion")
    return None, "HIP has no counterpart: convert through float by hand"
