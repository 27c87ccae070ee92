"""Small readers over tree-sitter-yaml trees (Kubernetes manifests, compose files, CI workflows): the pairs of a
mapping by key, scalar text, the chain of keys above a node, and the bytes of whole lines to delete or insert
beside. Only block and flow mappings with scalar keys are read; anchors, aliases and tags are left as they are.
"""
from __future__ import annotations

from typing import Iterator

import tree_sitter

from migrate.deploy.context import walk

PAIRS = ("block_mapping_pair", "flow_pair")
SCALARS = ("plain_scalar", "double_quote_scalar", "single_quote_scalar", "block_scalar")


def scalar(data: bytes, node: tree_sitter.Node | None) -> str | None:
    """The text of a scalar (a flow_node or block_node holding one, or the scalar itself), quotes removed."""
    if node is None:
        return None
    while node.type in ("flow_node", "block_node") and node.named_child_count == 1:
        node = node.named_children[0]
    if node.type not in SCALARS:
        return None
    text = data[node.start_byte:node.end_byte].decode("utf-8", "surrogateescape")
    if node.type in ("double_quote_scalar", "single_quote_scalar"):
        text = text[1:-1]
    return text


def key_node(pair: tree_sitter.Node) -> tree_sitter.Node | None:
    return pair.child_by_field_name("key")


def value_node(pair: tree_sitter.Node) -> tree_sitter.Node | None:
    return pair.child_by_field_name("value")


def key(data: bytes, pair: tree_sitter.Node) -> str | None:
    return scalar(data, key_node(pair))


def mapping(node: tree_sitter.Node | None) -> tree_sitter.Node | None:
    """The block or flow mapping a value node holds, if any."""
    while node is not None and node.type in ("block_node", "flow_node"):
        node = node.named_children[0] if node.named_child_count else None
    return node if node is not None and node.type in ("block_mapping", "flow_mapping") else None


def pairs(node: tree_sitter.Node | None) -> list[tree_sitter.Node]:
    found = mapping(node) if node is not None and node.type not in ("block_mapping", "flow_mapping") else node
    return [c for c in found.children if c.type in PAIRS] if found is not None else []


def get(data: bytes, node: tree_sitter.Node | None, name: str) -> tree_sitter.Node | None:
    """The pair with key `name` in the mapping `node` holds."""
    return next((p for p in pairs(node) if key(data, p) == name), None)


def field(data: bytes, node: tree_sitter.Node | None, name: str) -> str | None:
    """The scalar text of the value of key `name` in the mapping `node` holds, or None."""
    pair = get(data, node, name) if node is not None else None
    return scalar(data, value_node(pair)) if pair is not None else None


def items(node: tree_sitter.Node | None) -> list[tree_sitter.Node]:
    """The item nodes of a block or flow sequence a value node holds."""
    while node is not None and node.type in ("block_node", "flow_node"):
        node = node.named_children[0] if node.named_child_count else None
    if node is None:
        return []
    if node.type == "block_sequence":
        return [c.named_children[0] for c in node.children if c.type == "block_sequence_item" and c.named_children]
    if node.type == "flow_sequence":
        return [c for c in node.named_children]
    return []


def path(data: bytes, node: tree_sitter.Node) -> list[str]:
    """Keys of the pairs above `node`, outermost first (sequence items add no key)."""
    keys = []
    parent = node.parent
    while parent is not None:
        if parent.type in PAIRS:
            keys.append(key(data, parent) or "")
        parent = parent.parent
    return keys[::-1]


def documents(root: tree_sitter.Node) -> Iterator[tree_sitter.Node]:
    """The top-level mapping of each document of the stream."""
    for document in (c for c in root.children if c.type == "document"):
        for child in document.named_children:
            found = mapping(child)
            if found is not None:
                yield found


def kubernetes_objects(data: bytes, root: tree_sitter.Node) -> Iterator[tuple[str, tree_sitter.Node]]:
    """(kind, top-level mapping) of each Kubernetes object of a YAML stream: every document with `apiVersion` and
    `kind`, and the items of a `kind: List` (or `ConfigMapList`, ...)."""
    for top in documents(root):
        kind = field(data, top, "kind")
        if kind is None or get(data, top, "apiVersion") is None:
            continue
        if kind.endswith("List"):
            listed = get(data, top, "items")
            for item in items(value_node(listed)) if listed is not None else []:
                inner = field(data, item, "kind")
                if inner is not None and mapping(item) is not None:
                    yield inner, mapping(item)
            continue
        yield kind, top


def scalars(root: tree_sitter.Node) -> Iterator[tree_sitter.Node]:
    return walk(root, *SCALARS)


def lines(data: bytes, start: int, end: int) -> tuple[int, int]:
    """From the start of start's line through the newline that ends end's line."""
    first = data.rfind(b"\n", 0, start) + 1
    last = data.find(b"\n", end)
    return first, len(data) if last < 0 else last + 1
