"""PTX that inline `asm` uses, and what HIP offers instead: data for hazard rules and for listings.

`instructions(text)` reads the text of an asm string (after C escapes are undone) and returns the
opcodes and special registers it names, in order of first use. `suggestion(item)` gives the HIP
counterpart of one of them, None when HIP has none worth naming. `listing(findings)` makes one `AsmSite` per
inline-PTX finding (rule HAZ005) from the items the finding carries (`Finding.detail`), for `hipmigrate scan` and
the report.
"""
from __future__ import annotations

import re

from migrate.model import AsmSite

# Special registers (without the leading %) → the HIP expression to use instead.
SPECIAL_REGISTERS: dict[str, str] = {
    "laneid": "__lane_id()",
    "smid": "__smid()",
    "nsmid": "hipDeviceAttributeMultiprocessorCount (host)",
    "warpid": "threadIdx.x / warpSize",
    "nwarpid": "blockDim.x / warpSize",
    "lanemask_lt": "__lanemask_lt()",
    "lanemask_eq": "__lanemask_eq()",
    "lanemask_gt": "__lanemask_gt()",
    "lanemask_le": "(__lanemask_lt() | __lanemask_eq())",
    "lanemask_ge": "~__lanemask_lt()",
    "clock": "clock64()",
    "clock64": "clock64()",
    # %globaltimer counts nanoseconds; wall_clock64() counts ticks of a constant clock whose rate, in kHz, is
    # hipDeviceAttributeWallClockRate
    "globaltimer": "wall_clock64(), ticks: ns = ticks * 1e6 / hipDeviceAttributeWallClockRate",
    "globaltimer_lo": "wall_clock64(), ticks: ns = ticks * 1e6 / hipDeviceAttributeWallClockRate",
    "globaltimer_hi": "wall_clock64(), ticks: ns = ticks * 1e6 / hipDeviceAttributeWallClockRate",
    "tid": "threadIdx",
    "ntid": "blockDim",
    "ctaid": "blockIdx",
    "nctaid": "gridDim",
    "dynamic_smem_size": "",
    "total_smem_size": "",
    "gridid": "",
}

# Opcode prefixes (dot-separated parts) → the HIP counterpart; "" when there is none.
INSTRUCTIONS: dict[str, str] = {
    "ld.global.nc": "__ldg()",
    "mma.sync": "rocWMMA",
    "wmma": "rocWMMA",
    "ldmatrix": "rocWMMA",
    "stmatrix": "rocWMMA",
    "wgmma": "rocWMMA",
    "cp.async": "",
    "cp.async.bulk": "",
    "mbarrier": "",
    "setmaxnreg": "",
    "shfl.sync": "__shfl*()",
    "shfl": "__shfl*()",
    "vote.sync.ballot": "__ballot()",
    "vote.ballot": "__ballot()",
    "vote.sync.any": "__any()",
    "vote.any": "__any()",
    "vote.sync.all": "__all()",
    "vote.all": "__all()",
    "activemask": "__activemask()",
    "match.sync": "__match_any_sync()",
    "redux.sync": "__reduce_*_sync()",
    "bar.sync": "__syncthreads()",
    "barrier.sync": "__syncthreads()",
    "bar.warp.sync": "",
    "membar.cta": "__threadfence_block()",
    "membar.gl": "__threadfence()",
    "membar.sys": "__threadfence_system()",
    "fence": "__atomic_thread_fence()",
    "atom": "atomic*()",
    "red": "atomic*()",
    "prmt": "__byte_perm()",
    "brev": "__brev()",
    "popc": "__popc()/__popcll()",
    "clz": "__clz()/__clzll()",
    "bfe": "__bitextract_u32()",
    "bfi": "__bitinsert_u32()",
    "mul.hi": "__mulhi()/__umulhi()",
    "dp4a": "__builtin_amdgcn_sdot4()",
    "trap": "__builtin_trap()",
    "nanosleep": "__builtin_amdgcn_s_sleep()",
    "tex": "texture objects (tex1D/tex2D on hipTextureObject_t)",
    "suld": "surface objects",
    "sust": "surface objects",
}

_SPECIAL = re.compile(r"%%?([a-z_][a-z0-9_]*)")
_LABEL = re.compile(r"^\s*[A-Za-z_$][\w$]*\s*:(?!:)")
_PREDICATE = re.compile(r"^@!?%?\w+\s+")
_OPCODE = re.compile(r"[a-z][a-z0-9_]*(?:\.[a-z0-9_]+)*")
_TYPED = re.compile(r"\.(?:[usbf](?:8|16|32|64)|f16x2|bf16|pred)\b")


def instructions(text: str) -> list[str]:
    """Opcodes (`mov.u32`) and special registers (`%laneid`) used by the PTX in `text`, first use first."""
    seen: dict[str, None] = {}
    for statement in re.split(r"[;\n{}]", text):
        statement = _LABEL.sub("", statement).strip()
        statement = _PREDICATE.sub("", statement)
        if not statement or statement.startswith((".", "//")):
            continue  # a directive (.reg, .pred) or a comment
        m = _OPCODE.match(statement)
        if m:
            seen.setdefault(m.group(), None)
        for reg in _SPECIAL.finditer(statement[m.end() if m else 0:]):
            if reg.group(1) in SPECIAL_REGISTERS:
                seen.setdefault("%" + reg.group(1), None)
    return list(seen)


def suggestion(item: str) -> str | None:
    """The HIP counterpart of one item of `instructions()`: "" when HIP has none, None when unknown."""
    if item.startswith("%"):
        return SPECIAL_REGISTERS.get(item[1:])
    parts = item.split(".")
    best: tuple[int, str] | None = None
    for key, hip in INSTRUCTIONS.items():
        key_parts = key.split(".")
        if parts[:len(key_parts)] == key_parts and (best is None or len(key_parts) > best[0]):
            best = (len(key_parts), hip)
    return best[1] if best else None


def looks_like_ptx(text: str) -> bool:
    """True when `text` names a PTX special register or an opcode known to this table (x86 asm does not)."""
    for item in instructions(text):
        if item.startswith("%") or _TYPED.search(item) or (suggestion(item) is not None and "." in item):
            return True
    return False


ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}
INLINE_PTX = "HAZ005"  # the rule whose findings are asm sites


def asm_text(code) -> str:
    """The assembly text of a string literal node (or concatenated strings), C escapes undone."""
    pieces = [code] if code.type == "string_literal" else [c for c in code.named_children if c.type == "string_literal"]
    out = []
    for piece in pieces:
        for part in piece.named_children:
            text = part.text.decode("utf-8", "replace")
            out.append(ESCAPES.get(text[1:], text[1:]) if part.type == "escape_sequence" else text)
    return "".join(out)


def hints(items: list[str]) -> list[tuple[str, str]]:
    """(item, HIP counterpart) for each item this table knows; the counterpart is "" when HIP has none."""
    return [(item, hip) for item in items if (hip := suggestion(item)) is not None]


def describe(items: list[str]) -> str:
    """The inline-PTX finding's message: what the asm uses and what to use instead."""
    shown = [f"{item} → {hip}" if hip else f"{item} has no HIP counterpart" for item, hip in hints(items)]
    used = ", ".join(items) if items else "no instruction this tool recognises"
    return f"inline PTX does not compile for AMD GPUs: it uses {used}" + (f" ({'; '.join(shown)})" if shown else "")


def listing(findings) -> list[AsmSite]:
    """An AsmSite for each inline-PTX finding (from the PTX items the finding names), in path and line order."""
    sites = []
    for f in findings:
        if f.code != INLINE_PTX:
            continue
        items = list(f.detail)
        sites.append(AsmSite(f.span.path, f.span.line, f.span.column, tuple(items), tuple(hints(items))))
    return sorted(sites, key=lambda s: (s.path, s.line, s.column))
