"""A 32-bit lane mask handed to a warp-synchronous function that HIP gives a 64-bit mask.

AMD wavefronts on CDNA have 64 lanes, and HIP's `__shfl_*_sync`, `__ballot_sync`, `__any_sync`,
`__all_sync`, `__match_*_sync` and `__syncwarp` take a 64-bit mask (a static_assert rejects anything
narrower). CUDA's full mask `0xffffffff` becomes the full 64-lane mask `0xffffffffffffffffull`, in the call,
in a macro body, or in the `#define FULL_MASK 0xffffffff` that the call names (SAFE when the macro is used
only as such a mask, else UNSAFE), or in the declaration of a 32-bit variable that holds it, `unsigned mask =
0xffffffff;` (NVIDIA's vote sample), which becomes `unsigned long long mask = 0xffffffffffffffffull;`, and so does
one declared with the mask of the first n lanes, `int mask = (1 << n) - 1;` (shfl_scan), which becomes `unsigned long
long mask = (1ull << n) - 1;`, the same lanes (SAFE when the variable, in its block, is set nowhere else and used only
as such a mask, else UNSAFE); any other mask is flagged, because
which of 64 lanes it should name is a decision for the author. From HIP 7.0 a mask of a 32-bit type does not
compile (the static_assert), so what is left is an error there; before 7.0 CPP005 drops the mask. A mask variable declared 64-bit (`uint64_t`, `unsigned long long`, a ballot result
held in `auto`) is fine; a ballot result kept in 32 bits is rule HAZ003's. When the target HIP is older
than these functions, rule CPP005 uses the mask-free older forms instead.
"""
import re

from migrate.cpp.calls import arguments, call_of
from migrate.cpp.declared import declared_with
from migrate.cpp.lanes import SYNC_CALLS, declaration_of, is_32bit, mask_argument, scoped_uses, unwrapped, written
from migrate.cpp.macro_bodies import lanes, macros
from migrate.cpp.nodes import strip_span, text as node_text
from migrate.model import Applicability, Edit, Severity
from migrate.rule import HazardRule, Invalid, Valid

FULL32 = re.compile(r"^(?:0[xX][fF]{8}[uU]?|~0[uU]?|-1|0[xX][fF]{8}[uU]?[lL]?)$")
WIDE = re.compile(r"(?:[uU][lL][lL]|[lL][lL][uU]|ull|ULL)$|uint64_t|unsigned long long|__activemask|lanemask|~0ull|^0[xX][fF]{16}")
WIDE_TYPES = frozenset({b"uint64_t", b"std::uint64_t", b"unsigned long long", b"unsigned long long int", b"long long",
                        b"int64_t", b"unsigned long", b"size_t", b"lanemask_t", b"auto"})
NEW = (("hip_version", "7.0"),)
STATIC_ASSERT = (7, 0)  # HIP's *_sync functions static_assert a 64-bit mask type
FULL64 = "0xffffffffffffffffull"


def _first_lanes(value):
    """The literal one of `(1 << n) - 1` (or `1u`), the mask of the first n lanes; None for anything else."""
    value = unwrapped(value)
    if value.type != "binary_expression" or node_text(value.child_by_field_name("operator")) != "-" \
            or node_text(value.child_by_field_name("right")).strip() != "1":
        return None
    shift = unwrapped(value.child_by_field_name("left"))
    if shift.type != "binary_expression" or node_text(shift.child_by_field_name("operator")) != "<<":
        return None
    one = shift.child_by_field_name("left")
    return one if node_text(one) in ("1", "1u", "1U") else None


def bare(text: str) -> str:
    """The text without enclosing parentheses."""
    text = text.strip()
    while text.startswith("(") and text.endswith(")"):
        text = text[1:-1].strip()
    return text


class LaneMask32(HazardRule):
    code = "HAZ002"
    severity = Severity.WARNING
    examples = [
        Invalid("__device__ float f(float v) { return __shfl_down_sync(0xffffffff, v, 16); }",
                fixed="__device__ float f(float v) { return __shfl_down_sync(0xffffffffffffffffull, v, 16); }",
                options=NEW, line=1),
        Invalid("__device__ int g(int p) { return __ballot_sync(0xFFFFFFFFu, p); }",
                fixed="__device__ int g(int p) { return __ballot_sync(0xffffffffffffffffull, p); }", options=NEW),
        Invalid("__device__ int h(int v, unsigned m) { return __shfl_xor_sync(m, v, 1); }",
                message="lane mask 'm' is probably 32 bits wide: HIP wants a 64-bit mask naming up to 64 lanes; "
                        "declare it uint64_t and check which lanes it names", options=NEW),
        Invalid("#define FULL_MASK 0xffffffff\n"
                "__device__ float f(float v) { return __shfl_down_sync(FULL_MASK, v, 1); }\n",
                fixed="#define FULL_MASK 0xffffffffffffffffull\n"
                      "__device__ float f(float v) { return __shfl_down_sync(FULL_MASK, v, 1); }\n",
                options=NEW, line=1,
                message="FULL_MASK is defined as the 32-lane mask '0xffffffff' and used as the lane mask of "
                        "__shfl_down_sync: HIP needs the 64-bit full mask"),
        Invalid("#define SHFL(v, d) __shfl_down_sync(0xffffffff, v, d)\n",
                fixed="#define SHFL(v, d) __shfl_down_sync(0xffffffffffffffffull, v, d)\n", options=NEW, line=1),
        Valid("__device__ float f(float v) { return __shfl_down_sync(0xffffffffffffffffull, v, 16); }", options=NEW),
        Valid("__device__ int g(int v, uint64_t m) { return __shfl_xor_sync((uint64_t)m, v, 1); }", options=NEW),
        Valid("__device__ int g(int v, uint64_t m) { return __shfl_xor_sync(m, v, 1); }", options=NEW),
        Valid("#define FULL (~0ull)\n__device__ int g(int v) { auto m = __ballot_sync(FULL, v); "
              "return __shfl_sync(m, v, 0); }\n", options=NEW),
        # a variable that holds the full 32-lane mask: its declaration becomes 64-bit, once for every call
        Invalid("__global__ void k(int* r, const int* in) {\n    unsigned int mask = 0xffffffff;\n"
                "    r[0] = __any_sync(mask, in[0]);\n    r[1] = __all_sync(mask, in[1]);\n}\n",
                fixed="__global__ void k(int* r, const int* in) {\n    unsigned long long mask = 0xffffffffffffffffull;\n"
                      "    r[0] = __any_sync(mask, in[0]);\n    r[1] = __all_sync(mask, in[1]);\n}\n",
                options=NEW, line=2),
        # the mask of the first n lanes names the same lanes in 64 bits; a variable of the same name in another block
        # is another variable
        Invalid("__global__ void k(int* v) {\n    if (v[0]) {\n        unsigned mask = 0xffffffff;\n"
                "        v[1] = __shfl_up_sync(mask, v[1], 1);\n    } else {\n"
                "        int mask = (1 << (blockDim.x / warpSize)) - 1;\n        v[2] = __shfl_up_sync(mask, v[2], 1);\n"
                "    }\n}\n",
                fixed="__global__ void k(int* v) {\n    if (v[0]) {\n        unsigned long long mask = 0xffffffffffffffffull;\n"
                      "        v[1] = __shfl_up_sync(mask, v[1], 1);\n    } else {\n"
                      "        unsigned long long mask = (1ull << (blockDim.x / warpSize)) - 1;\n"
                      "        v[2] = __shfl_up_sync(mask, v[2], 1);\n    }\n}\n", options=NEW, line=3),
        # a comment naming the variable is no use of it
        Invalid("__global__ void k(int* r, const int* in) {\n    unsigned mask = 0xffffffff;  // mask: every lane\n"
                "    r[0] = __any_sync(mask, in[0]);\n}\n",
                fixed="__global__ void k(int* r, const int* in) {\n    unsigned long long mask = 0xffffffffffffffffull;  "
                      "// mask: every lane\n    r[0] = __any_sync(mask, in[0]);\n}\n", options=NEW, line=2),
        Valid("#define MASK32 0xffffffff\n__device__ unsigned lo(unsigned long long x) { return x & MASK32; }\n",
              options=NEW),
        Valid("__device__ float f(float v) { return __shfl_down(v, 16); }", options=NEW),
    ]

    def check(self, ctx):
        names = ctx.packs.names
        defined = None
        wide = None
        widened: set[int] = set()  # declarations already given the 64-bit full mask
        grade = Severity.ERROR if ctx.target_tuple >= STATIC_ASSERT else Severity.WARNING
        masks: dict[str, list[str]] = {}  # 32-bit full-mask macro -> the calls it is the mask of
        for token in ctx.code_tokens():
            if token.name not in SYNC_CALLS:
                continue
            mapping = names.get(token.name)
            if mapping is not None and ctx.too_new(mapping):
                continue  # CPP005 drops the mask for the older form
            call = call_of(token)
            args = arguments(call) if call is not None else []
            if not args:
                continue
            mask = args[0]
            text = mask.text.decode("utf-8", "surrogateescape").strip()
            start, end = token.base + mask.start_byte, token.base + mask.end_byte
            if FULL32.match(bare(text)):
                yield self.finding(ctx, start, end, f"full 32-lane mask '{text}' in {token.name}: HIP needs the "
                                   "64-bit full mask", edits=[Edit(start, end, FULL64)], title=f"Use {FULL64}")
                continue
            if WIDE.search(text):
                continue
            if mask.type == "identifier":
                if defined is None:
                    defined = {m.name: m for m in macros(ctx) if m.params is None}
                macro = defined.get(text)
                if macro is not None:
                    value = bare(macro.body.text.decode("utf-8", "surrogateescape"))
                    if FULL32.match(value):
                        masks.setdefault(text, []).append(token.name)
                        continue
                    if WIDE.search(value):
                        continue
                elif token.base == 0:
                    facts = lanes(ctx).facts(mask)
                    if text in facts.ballots:
                        continue  # its width is HAZ003's finding
                    declaration = declaration_of(mask) or facts.declarations.get(text)
                    if declaration is not None and declaration.id in widened:
                        continue
                    if declaration is not None and is_32bit(declaration.child_by_field_name("type")):
                        fix = self._widen(text, declaration)
                        if fix is not None:
                            widened.add(declaration.id)
                            at, edits, applicability, held = fix
                            yield self.finding(ctx, at.start_byte, at.end_byte, f"'{text}' holds {held} and is the "
                                               f"lane mask of {token.name}: HIP needs a 64-bit mask",
                                               edits=edits, title="Declare it 64-bit",
                                               applicability=applicability, severity=grade)
                            continue
                    if wide is None:
                        wide = declared_with(ctx, WIDE_TYPES)
                    if mask.text in wide and (text not in facts.declarations or
                                              facts.declared_type(text).text in WIDE_TYPES):
                        continue
            yield self.finding(ctx, start, end, f"lane mask '{text}' is probably 32 bits wide: HIP wants a 64-bit "
                               "mask naming up to 64 lanes; declare it uint64_t and check which lanes it names",
                               severity=grade if mask.type == "identifier" and token.base == 0 else None)
        yield from self._macros(ctx, masks, defined or {})

    @staticmethod
    def _widen(name: str, declaration):
        """(the declaration, its edits, their grade, what it holds) where a 32-bit variable declared with the full
        32-lane mask, or the mask of the first n lanes `(1 << n) - 1`, as its only value can be made 64-bit naming
        the same lanes of a 64-lane wavefront; None otherwise. SAFE where its every use is a warp-synchronous call's
        mask."""
        declarator = declaration.child_by_field_name("declarator")
        value = declarator.child_by_field_name("value") if declarator is not None else None
        if declarator is None or declarator.type != "init_declarator" or value is None or len(
                [c for c in declaration.named_children if c.type in ("init_declarator", "identifier")]) != 1:
            return None
        type_node = declaration.child_by_field_name("type")
        edits = [Edit(type_node.start_byte, type_node.end_byte, "unsigned long long")]
        one = _first_lanes(value)
        if FULL32.match(bare(node_text(value))):
            edits.append(Edit(value.start_byte, value.end_byte, FULL64))
            held = "the full 32-lane mask"
        elif one is not None:
            edits.append(Edit(one.start_byte, one.end_byte, "1ull"))
            held = f"the mask of the first lanes '{' '.join(node_text(value).split())}'"
        else:
            return None
        found = scoped_uses(declaration, name)
        if any(written(use) for use in found):
            return None  # set again, or its address taken
        as_masks = sum(1 for use in found if mask_argument(use))
        return declaration, edits, Applicability.SAFE if len(found) == as_masks else Applicability.UNSAFE, held

    def _macros(self, ctx, masks, defined):
        for name, calls in masks.items():
            macro = defined[name]
            start, end = strip_span(macro.body)
            uses = len(re.findall(rb"\b" + name.encode() + rb"\b", ctx.data)) - 1  # not the #define itself
            grade = Applicability.SAFE if uses == len(calls) else Applicability.UNSAFE
            value = ctx.text(start, end)
            yield self.finding(ctx, start, end, f"{name} is defined as the 32-lane mask '{value}' and used as the lane "
                               f"mask of {calls[0]}: HIP needs the 64-bit full mask", edits=[Edit(start, end, FULL64)],
                               title=f"Define it as {FULL64}", applicability=grade)
