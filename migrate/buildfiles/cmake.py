"""CMake files parsed with tree-sitter-cmake: commands and their arguments with byte spans.

The file is parsed whole once; its commands are read out of the tree in the order they are written, and the tree is
let go.
"""
from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from sys import intern

import tree_sitter
import tree_sitter_cmake

from migrate.context import FileContext

LANGUAGE = tree_sitter.Language(tree_sitter_cmake.language())
COMMAND_NODES = frozenset(("normal_command", "if_command", "elseif_command", "foreach_command", "while_command",
                           "function_command", "macro_command"))
_local = threading.local()


def parse(data: bytes) -> tree_sitter.Tree:
    p = getattr(_local, "parser", None)
    if p is None:
        p = _local.parser = tree_sitter.Parser(LANGUAGE)
    return p.parse(data)


@dataclass(frozen=True, slots=True)
class Arg:
    text: str  # as written, quotes included
    start: int
    end: int

    @property
    def value(self) -> str:
        """The text without surrounding quotes."""
        t = self.text
        return t[1:-1] if len(t) >= 2 and t[0] == t[-1] == '"' else t

    @property
    def quoted(self) -> bool:
        return self.text.startswith('"')


@dataclass(frozen=True, slots=True)
class Command:
    name: str  # lower-cased: CMake command names are case-insensitive
    start: int
    end: int
    args: tuple[Arg, ...]
    args_start: int  # just after "("
    args_end: int  # at ")"


def command(node: tree_sitter.Node, data: bytes) -> Command:
    """The command `node` with its arguments."""
    children = node.children
    head = children[0]
    open_paren = next((c for c in children if c.type == "("), None)
    close_paren = next((c for c in reversed(children) if c.type == ")"), None)
    args = tuple(Arg(data[a.start_byte:a.end_byte].decode("utf-8", "surrogateescape"), a.start_byte, a.end_byte)
                 for child in children if child.type == "argument_list"
                 for a in child.children if a.type == "argument")
    start = open_paren.end_byte if open_paren else head.end_byte
    end = close_paren.start_byte if close_paren else node.end_byte
    name = intern(head.text.decode("utf-8", "surrogateescape").lower())
    return Command(name, node.start_byte, node.end_byte, args, start, end)


def read_commands(root: tree_sitter.Node, data: bytes) -> tuple[Command, ...]:
    """Every command under `root`, in the order they are written."""
    out, stack = [], [root]
    while stack:
        node = stack.pop()
        if node.type in COMMAND_NODES:
            out.append(command(node, data))
        stack.extend(reversed(node.children))
    return tuple(out)


def errors_of(root: tree_sitter.Node) -> list[tuple[int, int]]:
    """(line, column) of the first five places under `root` tree-sitter could not parse."""
    if not root.has_error:
        return []
    found, stack = [], [root]
    while stack and len(found) < 5:
        node = stack.pop()
        if node.is_error or node.is_missing:
            found.append((node.start_point[0] + 1, node.start_point[1] + 1))
        elif node.has_error:
            stack.extend(reversed(node.children))
    return found


def parse_commands(data: bytes) -> tuple[tuple[Command, ...], list[tuple[int, int]]]:
    """The commands of `data` and its parse errors."""
    root = parse(data).root_node
    return read_commands(root, data), errors_of(root)


class CMakeContext(FileContext):
    kind = "cmake"

    @cached_property
    def _parsed(self) -> tuple[tuple[Command, ...], list[tuple[int, int]]]:
        return parse_commands(self.data)

    @property
    def commands(self) -> tuple[Command, ...]:
        return self._parsed[0]

    def named(self, *names: str) -> Iterator[Command]:
        """The commands of these names, in order."""
        wanted = {n.lower() for n in names}
        return (c for c in self.commands if c.name in wanted)

    def parse_errors(self) -> list[tuple[int, int]]:
        return list(self._parsed[1])
