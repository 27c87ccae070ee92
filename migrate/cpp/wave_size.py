"""The wave size as a compile-time constant per AMD target, for code that needs one where HIP 7 has none.

HIP up to 6.4 made `warpSize` a `constexpr int` equal to the compiler's `__AMDGCN_WAVEFRONT_SIZE`. From HIP 7.0,
`warpSize` is an object whose value is read at run time (`__builtin_amdgcn_wavefrontsize()`), so it is no constant
expression; the 7.2 compiler no longer predefines `__AMDGCN_WAVEFRONT_SIZE` or `__AMDGCN_WAVEFRONT_SIZE__` (the 6.4
one defines both and warns that they are deprecated). What the 7.2 compiler still predefines is the target family:
`__GFX9__` for gfx90a, gfx942 and gfx950 (64-lane wavefronts only), `__GFX11__`/`__GFX12__` for RDNA (32 lanes by
default), and `__HIP_DEVICE_COMPILE__` in the device pass only. Rules HAZ027 and HAZ028 (and HAZ001 for a 7.x
target) write `HIPMIGRATE_WAVE_SIZE` where a constant is needed and put `block()` once at the top of the file.

The block gives what 6.4's `__AMDGCN_WAVEFRONT_SIZE` gave: 64 on gfx6-gfx9, 32 on gfx10 and later, and 64 in the host
pass (6.4 defined 64 there whatever the target), and nothing outside a HIP compile (`__HIP__`: a header that a
host compiler also reads tests the macro as it tested `__AMDGCN_WAVEFRONT_SIZE`). It cannot see `-mwavefrontsize64`
(the 7.2 compiler predefines nothing for it; 6.4's hip_runtime.h refused wave64 on RDNA): such a build defines
`-DHIPMIGRATE_WAVE_SIZE=64`.
"""
from __future__ import annotations

import re

from migrate.model import Edit

MACRO = "HIPMIGRATE_WAVE_SIZE"
CONSTANT_UNTIL = (7, 0)  # warpSize is a constant expression before HIP 7.0
MACROS_DEPRECATED = (6, 3)  # the compiler warns on __AMDGCN_WAVEFRONT_SIZE(__) (checked with 6.4)
MACROS_REMOVED = (7, 2)  # and no longer defines them (checked with 7.2)
DEFINED = re.compile(rb"^[ \t]*#[ \t]*define[ \t]+" + MACRO.encode() + rb"\b", re.M)
# leading comments and blank lines, then a `#pragma once` or an include guard: the block goes after them (a `//`
# comment goes on past a backslash at its line's end: the block must not land inside it, a fuzz find)
LEAD = re.compile(rb"\A(?:[ \t]*(?://(?:\\\r?\n|[^\n])*|/\*.*?\*/)?[ \t]*\r?\n)*"
                  rb"(?:[ \t]*#[ \t]*pragma[ \t]+once[^\n]*\n"
                  rb"|[ \t]*#[ \t]*ifndef[ \t]+(\w+)[^\n]*\n[ \t]*#[ \t]*define[ \t]+\1\b[^\n]*\n)?", re.S)


def block(newline: str = "\n") -> str:
    lines = (
        f"#if !defined({MACRO}) && defined(__HIP__)",
        "// hipmigrate: the wave size as a compile-time constant (HIP 7 has none): 64 on gfx9 (CDNA), 32 on RDNA,",
        "// 64 in the host pass; define it as 64 for RDNA built with -mwavefrontsize64",
        "#if !defined(__HIP_DEVICE_COMPILE__) || defined(__GFX9__) || defined(__GFX8__) || defined(__GFX7__) || "
        "defined(__GFX6__)",
        f"#define {MACRO} 64",
        "#else",
        f"#define {MACRO} 32",
        "#endif",
        "#endif",
    )
    return newline.join(lines) + newline


def block_edits(ctx) -> list[Edit]:
    """The insertion of the block, or none when the file defines the macro already. Every fix that writes the macro
    carries it: the same insertion made by several fixes is made once (migrate/edits.py)."""
    if DEFINED.search(ctx.data):
        return []
    at = LEAD.match(ctx.data).end()
    return [Edit(at, at, block(ctx.newline))]


# nodes past which a name is no longer part of one constant expression
STOP = {"compound_statement", "expression_statement", "return_statement", "function_definition", "translation_unit",
        "lambda_expression", "field_declaration_list", "enumerator_list", "parameter_list", "for_statement",
        "while_statement", "if_statement", "condition_clause", "preproc_def", "preproc_function_def"}


def constant_position(node) -> tuple[str, bool] | None:
    """Where the name `node` stands in a place C++ needs a constant expression: (what, compiles), `compiles` False
    for an error and True for an automatic array, which becomes a variable-length array (a Clang extension); None
    when it stands in ordinary code."""
    child, parent = node, node.parent
    while parent is not None:
        kind = parent.type
        if kind == "array_declarator" and parent.child_by_field_name("size") == child:
            return _array(parent)
        if kind == "template_argument_list":
            return "template argument", False
        if kind == "static_assert_declaration" and parent.child_by_field_name("condition") == child:
            return "static_assert condition", False
        if kind == "case_statement" and parent.child_by_field_name("value") == child:
            return "case label", False
        if kind == "bitfield_clause":
            return "bit-field width", False
        if kind == "enumerator" and parent.child_by_field_name("value") == child:
            return "enumerator value", False
        if kind == "optional_parameter_declaration" and parent.parent is not None \
                and parent.parent.type == "template_parameter_list" \
                and parent.child_by_field_name("default_value") == child:
            return "template argument", False
        if kind == "condition_clause" and parent.parent is not None and parent.parent.type == "if_statement" \
                and any(c.type == "constexpr" for c in parent.parent.children):
            return "if constexpr condition", False
        if kind == "init_declarator" and parent.child_by_field_name("value") == child:
            declaration = parent.parent
            if declaration is not None and any(c.type == "type_qualifier" and c.text == b"constexpr"
                                               for c in declaration.children):
                return "constexpr variable", False
            return None
        if kind in STOP:
            return None
        child, parent = parent, parent.parent
    return None


def _array(declarator) -> tuple[str, bool] | None:
    """An array bound: of a parameter (it decays: no constant needed), a member, a static, __shared__ or
    namespace-scope array (an error), or an automatic one (a variable-length array)."""
    node = declarator
    while node is not None and node.type not in ("declaration", "field_declaration", "parameter_declaration",
                                                 "optional_parameter_declaration"):
        if node.type in STOP:
            return None
        node = node.parent
    if node is None or node.type.endswith("parameter_declaration"):
        return None
    if node.type == "field_declaration":
        return "member array bound", False
    words = {c.text for c in node.children if c.type in ("type_qualifier", "storage_class_specifier")}
    if b"__shared__" in words:
        return "__shared__ array bound", False
    if words & {b"static", b"__constant__", b"extern"} or not _in_body(node):
        return "static array bound", False
    return "array bound", True


def _in_body(node) -> bool:
    while node is not None:
        if node.type == "compound_statement":
            return True
        node = node.parent
    return False


def used_as_constant(ctx, name: str):
    """The first use of `name` (a macro or a constant) that stands where a constant is needed, as
    (token, what), or None."""
    pattern = re.compile(rb"(?<![\w$.>:])(" + re.escape(name.encode()) + rb")(?![\w$])")
    for _, token in ctx.code_matches(pattern):
        if token.node is None:
            continue
        where = constant_position(token.node)
        if where is not None:
            return token, where[0]
    return None
