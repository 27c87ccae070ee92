"""The integer type of a simple C++ expression inside a function, as the compiler would give it (LP64: long and
size_t are 64 bits), or None where it cannot be told from the function and the file alone.

Known: integer literals by value and suffix; variables and parameters declared with a plain integer type in the
function or at file scope (a name declared twice with different types is unknown); `threadIdx.x` and the other
built-in coordinates (unsigned int); `warpSize` (int); casts; `sizeof` (unsigned long); and the arithmetic,
bitwise, shift, comparison and conditional operators over those, with C++'s promotions and usual arithmetic
conversions. Anything else (calls, members, templates' type parameters, floating point) is unknown."""
from __future__ import annotations

import re

import tree_sitter

from migrate.cpp import parse
from migrate.model import Edit

INT, UINT, LONG, ULONG, LLONG, ULLONG = "int", "unsigned int", "long", "unsigned long", "long long", "unsigned long long"
RANK = {INT: 1, UINT: 1, LONG: 2, ULONG: 2, LLONG: 3, ULLONG: 3}
UNSIGNED = {INT: UINT, LONG: ULONG, LLONG: ULLONG}
BITS = {INT: 32, UINT: 32, LONG: 64, ULONG: 64, LLONG: 64, ULLONG: 64}
# spellings, after dropping const/volatile/signed-noise and `std::`, of the types that are (or promote to) these
NAMES = {
    INT: {"int", "signed", "signed int", "short", "short int", "unsigned short", "unsigned short int", "char",
          "signed char", "unsigned char", "bool", "int8_t", "int16_t", "int32_t", "uint8_t", "uint16_t"},
    UINT: {"unsigned", "unsigned int", "uint", "uint32_t"},
    LONG: {"long", "long int", "signed long", "int64_t", "ssize_t", "ptrdiff_t", "intptr_t"},
    ULONG: {"unsigned long", "unsigned long int", "size_t", "uint64_t", "uintptr_t"},
    LLONG: {"long long", "long long int", "signed long long"},
    ULLONG: {"unsigned long long", "unsigned long long int"},
}
SPELLING = {name: kind for kind, names in NAMES.items() for name in names}
COORDINATES = {b"threadIdx", b"blockIdx", b"blockDim", b"gridDim"}
ARITHMETIC = {"+", "-", "*", "/", "%", "&", "|", "^"}
COMPARISON = {"<", ">", "<=", ">=", "==", "!=", "&&", "||"}
# arguments written as they are inside a cast; anything else is parenthesised first
UNWRAPPED = {"identifier", "number_literal", "field_expression", "parenthesized_expression", "call_expression"}
LITERAL = re.compile(r"(0[xX][0-9a-fA-F']+|0[bB][01']+|[0-9']+)([uUlL]*)")


def normal(type_text: str) -> str | None:
    """The integer type a declaration's type spells, promoted (short and char become int), or None."""
    words = [w for w in type_text.replace("std::", "").split() if w not in ("const", "volatile", "register")]
    return SPELLING.get(" ".join(words))


def common(a: str, b: str) -> str:
    """The usual arithmetic conversions of two promoted integer types."""
    if a == b:
        return a
    if (a in UNSIGNED) == (b in UNSIGNED):
        return a if RANK[a] > RANK[b] else b
    signed, unsigned = (a, b) if a in UNSIGNED else (b, a)
    if RANK[unsigned] >= RANK[signed]:
        return unsigned
    return signed if BITS[signed] > BITS[unsigned] else UNSIGNED[signed]


def literal(token: str) -> str | None:
    m = LITERAL.fullmatch(token)
    if m is None:
        return None
    digits, suffix = m.group(1).replace("'", ""), m.group(2).lower()
    base = 16 if digits[:2].lower() == "0x" else 2 if digits[:2].lower() == "0b" else 8 if digits[:1] == "0" else 10
    value = int(digits[2:] if base in (16, 2) else digits, base) if digits.strip("0") or base != 8 else 0
    decimal = base == 10 or digits == "0"
    unsigned, longs = "u" in suffix, suffix.count("l")
    order = [INT, UINT, LONG, ULONG, LLONG, ULLONG][2 * min(longs, 2):]
    for kind in order:
        if unsigned and kind not in UNSIGNED.values():
            continue
        if decimal and not unsigned and kind in UNSIGNED.values():
            continue  # a decimal literal without u never becomes unsigned
        if value < 2 ** (BITS[kind] - (0 if kind in UNSIGNED.values() else 1)):
            return kind
    return None


def declared(declarations, names: dict[bytes, str | None]) -> dict[bytes, str | None]:
    """`names` with the plainly declared variables of `declarations` (parse.declarations' triples) added, each with
    its integer type; a name declared twice with different types is unknown (None)."""
    for node, type_text, shape in declarations:
        if node.type != "identifier" or shape:
            continue
        kind = normal(type_text.decode("utf-8", "replace"))
        names[node.text] = None if node.text in names and names[node.text] != kind else kind
    return names


def file_scope(root: tree_sitter.Node) -> dict[bytes, str | None]:
    """The integer types of the names declared at file scope (not inside functions)."""
    return declared((d for child in root.named_children if child.type == "declaration"
                     for d in parse.declarations(child, None)), {})


class Types:
    """The declared integer types of one function's names (and the file's), and expression typing over them."""

    def __init__(self, function: tree_sitter.Node, file_names: dict[bytes, str | None]):
        self.names = declared(parse.declarations(function, None), dict(file_names))

    def of(self, node: tree_sitter.Node) -> str | None:
        kind = node.type
        if kind == "number_literal":
            return literal(node.text.decode("ascii", "replace"))
        if kind == "identifier":
            return INT if node.text == b"warpSize" else self.names.get(node.text)
        if kind == "field_expression":
            base, name = node.child_by_field_name("argument"), node.child_by_field_name("field")
            if base is not None and base.type == "identifier" and base.text in COORDINATES and name is not None \
                    and name.text in (b"x", b"y", b"z"):
                return UINT
            return None
        if kind == "parenthesized_expression":
            return self.of(node.named_children[0]) if len(node.named_children) == 1 else None
        if kind == "cast_expression":
            type_node = node.child_by_field_name("type")
            return normal(type_node.text.decode("utf-8", "replace")) if type_node is not None else None
        if kind == "sizeof_expression":
            return ULONG
        if kind == "unary_expression":
            operator, operand = node.child_by_field_name("operator"), node.child_by_field_name("argument")
            if operator is not None and operator.type == "!":
                return INT
            return self.of(operand) if operand is not None else None
        if kind == "binary_expression":
            return self._binary(node)
        if kind == "conditional_expression":
            a, b = node.child_by_field_name("consequence"), node.child_by_field_name("alternative")
            ta, tb = (self.of(a) if a is not None else None), (self.of(b) if b is not None else None)
            return common(ta, tb) if ta and tb else None
        return None

    def _binary(self, node: tree_sitter.Node) -> str | None:
        operator = node.child_by_field_name("operator").type
        if operator in COMPARISON:
            return INT  # bool, promoted
        left, right = self.of(node.child_by_field_name("left")), self.of(node.child_by_field_name("right"))
        if operator in ("<<", ">>"):
            return left if right else None
        if operator in ARITHMETIC and left and right:
            return common(left, right)
        return None



def cast(arg: tree_sitter.Node, to: str) -> Edit:
    """The edit that casts an argument expression to `to`: `(unsigned int)n`, `(unsigned int)(n - 1)`."""
    text = arg.text.decode("utf-8", "surrogateescape")
    return Edit(arg.start_byte, arg.end_byte, f"({to}){text if arg.type in UNWRAPPED else f'({text})'}")
