"""The declared type of a value or a pointer that a rule finds as an argument, from the file's declarations.

A name the file declares one way only is known everywhere; one it declares with several types (or shapes) is
known inside a function that declares it one way. No further scoping: enough for rules that look at a few types
(vectors, halves) where a wrong guess would only cost a finding."""
from __future__ import annotations

import tree_sitter

from migrate.cpp import parse
from migrate.edits import decoded

Declared = dict[bytes, list[tuple[bytes, tuple[str, ...], int]]]  # name -> [(type, declarator shape, where)]
INDIRECT = ("pointer_declarator", "array_declarator")
STRUCTS = parse.query("[(struct_specifier name: (type_identifier) @name body: (field_declaration_list) @body)"
                      " (type_definition type: (struct_specifier body: (field_declaration_list) @body)"
                      " declarator: (type_identifier) @name)]")


def declared(ctx, types: frozenset[bytes] | None = None) -> Declared:
    """Every type and shape each name of the file is declared with (references looked through), once a file;
    with `types`, only the declarations of those types (faster, but a name also declared with another type
    then looks known)."""
    def build(c) -> Declared:
        out: Declared = {}
        for node, type_text, shape in parse.declarations(c.tree.root_node, types):
            shape = tuple(s for s in shape if s != "reference_declarator")
            out.setdefault(node.text, []).append((type_text, shape, node.start_byte))
        return out
    return ctx.once(("typed-declared", types), build)


def fields(ctx) -> dict[bytes, dict[bytes, bytes]]:
    """struct name -> {member: type} of the plain (not pointer or array) members of the file's structs."""
    def build(c) -> dict[bytes, dict[bytes, bytes]]:
        out: dict[bytes, dict[bytes, bytes]] = {}
        for m in parse.matches(STRUCTS, c.tree.root_node):
            members = out.setdefault(m["name"][0].text, {})
            for field in m["body"][0].named_children:
                kind = field.child_by_field_name("type")
                if field.type != "field_declaration" or kind is None:
                    continue
                for declarator in field.children_by_field_name("declarator"):
                    if declarator.type == "field_identifier":
                        members[declarator.text] = kind.text
        return out
    return ctx.once("typed-fields", build)


def member_type(node: tree_sitter.Node, names: Declared, structs: dict[bytes, dict[bytes, bytes]]) -> bytes | None:
    """The type of `s.m` (or `p->m`, `a[i].m`) where `s` is a value of one of the file's structs."""
    if node.type != "field_expression":
        return None
    owner, member = node.child_by_field_name("argument"), node.child_by_field_name("field")
    if owner is None or member is None:
        return None
    arrow = node.children[1].type == "->" if len(node.children) > 1 else False
    entry = _only(owner, names)
    if entry is None or len(entry[1]) != _reads(owner) + (1 if arrow else 0):
        return None
    return structs.get(entry[0], {}).get(member.text)


CASTS = ("reinterpret_cast", "static_cast", "const_cast")


def _cast_to_pointer(node: tree_sitter.Node) -> bytes | None:
    """T of `reinterpret_cast<T*>(x)` (and static_cast, const_cast) or `(T*)x`."""
    descriptor = None
    if node.type == "cast_expression":
        descriptor = node.child_by_field_name("type")
    elif node.type == "call_expression":
        function = node.child_by_field_name("function")
        if function is not None and function.type == "template_function":
            name, arguments = function.child_by_field_name("name"), function.child_by_field_name("arguments")
            if name is not None and decoded(name.text) in CASTS and arguments is not None and arguments.named_children:
                descriptor = arguments.named_children[0]
    if descriptor is None or descriptor.type != "type_descriptor":
        return None
    declarator, kind = descriptor.child_by_field_name("declarator"), descriptor.child_by_field_name("type")
    if declarator is None or declarator.type != "abstract_pointer_declarator" or declarator.named_children:
        return None  # T* only, not T** or T(*)[n]
    return kind.text if kind is not None else None


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
    """(type, shape) of the name `node` reads, when it is declared one way in the file or in its function."""
    base = parse.element_base(node)
    if base is None or base.type != "identifier" or base.text not in names:
        return None
    entries = names[base.text]
    kinds = {(t, shape) for t, shape, _ in entries}
    if len(kinds) > 1:
        function = _function(base)
        if function is None:
            return None
        kinds = {(t, shape) for t, shape, at in entries if function.start_byte <= at < function.end_byte}
    if len(kinds) != 1:
        return None
    (entry,) = kinds
    return entry if all(s in INDIRECT for s in entry[1]) else None


def _function(node: tree_sitter.Node) -> tree_sitter.Node | None:
    while node is not None and node.type not in ("function_definition", "lambda_expression"):
        node = node.parent
    while node is not None and node.type == "lambda_expression":  # a lambda sees its function's names
        node = node.parent
        while node is not None and node.type not in ("function_definition", "lambda_expression"):
            node = node.parent
    return node


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
    cast = _cast_to_pointer(node)
    if cast is not None:
        return cast
    entry = _only(node, names)
    return entry[0] if entry is not None and len(entry[1]) == _reads(node) + 1 else None
