"""The declared type of a value or a pointer that a rule finds as an argument, from the file's declarations.

Names are file-wide, not scoped: a name the file declares with two types (or shapes) is not known. Enough for
rules that look at a few types (vectors, halves) where a wrong guess would only cost a finding."""
from __future__ import annotations

import tree_sitter

from migrate.cpp import parse

Declared = dict[bytes, set[tuple[bytes, tuple[str, ...]]]]  # name -> {(type, declarator shape)}
INDIRECT = ("pointer_declarator", "array_declarator")


def declared(ctx, types: frozenset[bytes] | None = None) -> Declared:
    """Every type and shape each name of the file is declared with (references looked through), once a file;
    with `types`, only the declarations of those types (faster, but a name also declared with another type
    then looks known)."""
    def build(c) -> Declared:
        out: Declared = {}
        for node, type_text, shape in parse.declarations(c.tree.root_node, types):
            out.setdefault(node.text, set()).add((type_text, tuple(s for s in shape if s != "reference_declarator")))
        return out
    return ctx.once(("typed-declared", types), build)


def _reads(node: tree_sitter.Node) -> int:
    """How many `[i]` and `*` `node` reads through to its base; -1 for an address `&x`."""
    depth = 0
    while node is not None and node.type in ("subscript_expression", "pointer_expression", "parenthesized_expression"):
        if node.type == "parenthesized_expression":
            node = node.named_children[0] if node.named_children else None
            continue
        if node.type == "pointer_expression" and node.children[0].type != "*":
            return -1
        depth += 1
        node = node.child_by_field_name("argument")
    return depth


def _only(node: tree_sitter.Node | None, names: Declared) -> tuple[bytes, tuple[str, ...]] | None:
    base = parse.element_base(node)
    if base is None or base.type != "identifier" or len(names.get(base.text, ())) != 1:
        return None
    (entry,) = names[base.text]
    return entry if all(s in INDIRECT for s in entry[1]) else None


def value_type(node: tree_sitter.Node, names: Declared) -> bytes | None:
    """The type of the value `node` is: a variable declared with it, or an element (`p[i]`, `*p`) of a pointer or
    array of it."""
    entry = _only(node, names)
    return entry[0] if entry is not None and len(entry[1]) == _reads(node) else None


def pointee_type(node: tree_sitter.Node, names: Declared) -> bytes | None:
    """The type `node` points to: a pointer or array declared to it (`p`, `p + i`, `&p[i]`)."""
    if node.type == "pointer_expression" and node.children[0].type == "&":
        return value_type(node.child_by_field_name("argument"), names)
    if node.type == "binary_expression" and node.child_by_field_name("operator").type in ("+", "-"):
        node = node.child_by_field_name("left")
    entry = _only(node, names)
    return entry[0] if entry is not None and len(entry[1]) == _reads(node) + 1 else None
