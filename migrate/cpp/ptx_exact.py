"""Inline PTX of one instruction whose HIP counterpart computes the same: what CPP070 writes for an `asm` statement
and HAZ005 then leaves alone. `rewrite(node)` gives the instruction, the HIP function and the statement's HIP text,
or None when the asm is more than one instruction HIP has exactly (a template with several instructions, operands it
cannot name, an unknown opcode)."""
from __future__ import annotations

import re
from typing import NamedTuple

from migrate.cpp.ptx import asm_text
from migrate.edits import decoded

# opcode -> (HIP function, operand types): the value is the call of the function on the instruction's sources
CALLS = {
    "vabsdiff4.u32.u32.u32.add": "__builtin_amdgcn_sad_u8",  # v_sad_u8: the bytes' absolute differences, summed, + c
    "prmt.b32": "__byte_perm",
    "mul.hi.u32": "__umulhi", "mul.hi.s32": "__mulhi", "mul.hi.u64": "__umul64hi", "mul.hi.s64": "__mul64hi",
    "brev.b32": "__brev", "brev.b64": "__brevll", "popc.b32": "__popc", "popc.b64": "__popcll",
    "clz.b32": "__clz", "clz.b64": "__clzll",
    "shf.l.wrap.b32": "__funnelshift_l", "shf.r.wrap.b32": "__funnelshift_r",
    "shf.l.clamp.b32": "__funnelshift_lc", "shf.r.clamp.b32": "__funnelshift_rc",
}
# fences and barriers: no operands
STATEMENTS = {"membar.gl": "__threadfence()", "membar.cta": "__threadfence_block()",
              "membar.sys": "__threadfence_system()", "fence.sc.gpu": "__threadfence()",
              "fence.sc.cta": "__threadfence_block()", "fence.sc.sys": "__threadfence_system()",
              "bar.sync 0": "__syncthreads()", "barrier.sync 0": "__syncthreads()"}
# element types of atomics and loads
TYPES = {"u32": "unsigned int", "s32": "int", "u64": "unsigned long long", "f32": "float", "f64": "double"}
LOAD_TYPES = {**TYPES, "s64": "long long"}
ATOMICS = {"add": "atomicAdd", "exch": "atomicExch", "min": "atomicMin", "max": "atomicMax"}
RED = re.compile(r"red(?:\.global)?\.(add|min|max)\.(u32|s32|u64|f32|f64)")
ATOM = re.compile(r"atom(?:\.global)?\.(add|exch|min|max)\.(u32|s32|u64|f32|f64)")
LOAD = re.compile(r"ld\.global\.nc\.(u32|s32|u64|s64|f32|f64)")
OPERAND = re.compile(r"%(\d+)")
ADDRESS = re.compile(r"\[\s*%(\d+)\s*\]")
VALUE_CONSTRAINTS = frozenset({"r", "l", "f", "d", "h", "n"})


class Rewrite(NamedTuple):
    opcode: str  # the PTX instruction (`red.global.add.u64`)
    function: str  # the HIP function that computes it (`atomicAdd`)
    text: str  # the HIP statement, without its `;`


def rewrite(node) -> Rewrite | None:
    """The HIP statement for the asm statement of gnu_asm_expression NODE, or None."""
    code = node.child_by_field_name("assembly_code")
    if code is None or any(node.child_by_field_name(f) is not None for f in ("goto_labels",)):
        return None
    text = " ".join(asm_text(code).split()).rstrip(";").strip()
    if not text or ";" in text or "{" in text or "\n" in text:
        return None
    operands = _operands(node)
    if operands is None:
        return None
    outputs, values = operands
    opcode, _, rest = text.partition(" ")
    if text in STATEMENTS:
        call = STATEMENTS[text]
        return Rewrite(opcode, call.removesuffix("()"), call) if not outputs and not values else None
    parts = [p.strip() for p in rest.split(",")] if rest else []
    found = _instruction(opcode, parts, outputs, values)
    return Rewrite(opcode, *found) if found is not None else None


def _instruction(opcode: str, parts: list[str], outputs: list[str], values: list[str]) -> tuple[str, str] | None:
    """(the HIP function, the HIP statement) for one instruction and its operands' expressions, or None."""
    every = outputs + values

    def value(part: str) -> str | None:
        m = OPERAND.fullmatch(part)
        return f"({every[int(m.group(1))]})" if m and int(m.group(1)) < len(every) else None

    def address(part: str, kind: str) -> str | None:
        m = ADDRESS.fullmatch(part)
        if not m or int(m.group(1)) >= len(every):
            return None
        return f"reinterpret_cast<{kind}*>({every[int(m.group(1))]})"

    if opcode in CALLS and len(outputs) == 1 and parts and value(parts[0]) == f"({outputs[0]})":
        sources = [value(p) for p in parts[1:]]
        if None in sources:
            return None
        return CALLS[opcode], f"{outputs[0]} = {CALLS[opcode]}({', '.join(sources)})"
    red = RED.fullmatch(opcode)
    if red and not outputs and len(parts) == 2:
        kind = TYPES[red.group(2)]
        target, amount = address(parts[0], kind), value(parts[1])
        if target is None or amount is None or (red.group(1) != "add" and red.group(2) in ("f32", "f64")):
            return None
        return ATOMICS[red.group(1)], f"{ATOMICS[red.group(1)]}({target}, static_cast<{kind}>{amount})"
    atom = ATOM.fullmatch(opcode)
    if atom and len(outputs) == 1 and len(parts) == 3 and value(parts[0]) == f"({outputs[0]})":
        kind = TYPES[atom.group(2)]
        target, amount = address(parts[1], kind), value(parts[2])
        if target is None or amount is None or (atom.group(1) in ("min", "max") and atom.group(2) in ("f32", "f64")):
            return None
        return ATOMICS[atom.group(1)], f"{outputs[0]} = {ATOMICS[atom.group(1)]}({target}, static_cast<{kind}>{amount})"
    load = LOAD.fullmatch(opcode)
    if load and len(outputs) == 1 and len(parts) == 2 and value(parts[0]) == f"({outputs[0]})":
        kind = LOAD_TYPES[load.group(1)]
        source = address(parts[1], f"const {kind}")
        return ("__ldg", f"{outputs[0]} = __ldg({source})") if source is not None else None
    return None


def _operands(node) -> tuple[list[str], list[str]] | None:
    """(the output operands' expressions, the input operands' expressions), None when one is not a plain value
    operand (a `+` read-write output, a memory constraint, a named operand) or clobbers name registers."""
    outputs, values = [], []
    for field, kind, target in (("output_operands", "gnu_asm_output_operand", outputs),
                                ("input_operands", "gnu_asm_input_operand", values)):
        group = node.child_by_field_name(field)
        if group is None:
            continue
        for operand in group.named_children:
            if operand.type != kind:
                continue
            if operand.child_by_field_name("symbol") is not None:
                return None
            constraint = operand.child_by_field_name("constraint")
            expression = operand.child_by_field_name("value")
            if constraint is None or expression is None:
                return None
            letters = asm_text(constraint)
            if kind == "gnu_asm_output_operand":
                if not letters.startswith("=") or letters[1:] not in VALUE_CONSTRAINTS:
                    return None
            elif letters not in VALUE_CONSTRAINTS:
                return None
            target.append(" ".join(decoded(expression.text).split()))
    return outputs, values
