"""The shell text of a YAML file's script steps, and where it lies in the file.

The values of `run:` (GitHub Actions), `script:`, `before_script:` and `after_script:` (GitLab CI), and whatever other
keys a reader names (`command:`/`args:` of Kubernetes and compose): a scalar, a block scalar (`|` or `>`: the lines
after its indicator line, as written), or a list of either. A quoted scalar is read when it holds no escape (no `\\`
in double quotes, no `''` in single quotes): its bytes between the quotes are then the shell text, and `quote` says
which quote a fix must not break (`ShellText.escape`). A folded scalar (`>`) is read line by line as written,
though YAML joins its lines with spaces.
"""
from __future__ import annotations

from typing import Iterator

import tree_sitter

from migrate.deploy import yaml_nodes as y
from migrate.deploy.context import parse
from migrate.deploy.docker_shell import ShellText

SCRIPT_KEYS = ("run", "script", "before_script", "after_script")


def trees(ctx) -> list[tuple[tree_sitter.Node, ShellText]]:
    """(bash tree, ShellText) for each script step of a YAML context, parsed once per file: the rules over
    diagnostic commands each look through them (migrate/deploy/shell_commands.py)."""
    return ctx.once("yaml_shell_trees", lambda c: [(parse("shell", shell.text).root_node, shell)
                                                   for shell in shell_texts(c)])


def shell_texts(ctx, keys: tuple[str, ...] = SCRIPT_KEYS) -> Iterator[ShellText]:
    """The shell text of every value of one of `keys`, in document order."""
    data = ctx.data
    for pair in ctx.nodes(*y.PAIRS):
        if y.key(data, pair) in keys:
            yield from value_texts(data, y.value_node(pair))


def value_texts(data: bytes, node: tree_sitter.Node | None) -> Iterator[ShellText]:
    """The shell text of one script value."""
    while node is not None and node.type in ("block_node", "flow_node") and node.named_children:
        node = node.named_children[0]
    if node is None:
        return
    if node.type == "block_scalar":
        newline = data.find(b"\n", node.start_byte, node.end_byte)
        if newline >= 0:
            yield ShellText(data[newline + 1:node.end_byte], newline + 1)
    elif node.type in ("block_sequence", "flow_sequence"):
        for item in y.items(node):
            yield from value_texts(data, item)
    elif node.type == "plain_scalar":
        yield ShellText(data[node.start_byte:node.end_byte], node.start_byte)
    elif node.type in ("double_quote_scalar", "single_quote_scalar"):
        quote = '"' if node.type == "double_quote_scalar" else "'"
        inner = data[node.start_byte + 1:node.end_byte - 1]
        if (b"\\" if quote == '"' else b"''") not in inner:
            yield ShellText(inner, node.start_byte + 1, quote=quote)
