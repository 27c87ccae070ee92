"""CMake files parsed with tree-sitter-cmake: commands and their arguments with byte spans.

A file is parsed in pieces (migrate/buildfiles/cmake_chunks.py) and each piece's tree is dropped once its commands
are read, so that a huge file never has a whole tree (about eighty times its size) at once. The commands are kept
compactly, as offsets (`CommandTable`); a `Command` and its `Arg`s are made when a rule reads them. A file whose
pieces do not all parse cleanly is parsed whole, so that its parse errors are those of the whole file.
"""
from __future__ import annotations

import threading
from array import array
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from sys import intern

import tree_sitter
import tree_sitter_cmake

from migrate.buildfiles import cmake_chunks
from migrate.buildfiles.tables import OffsetTable
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


class CommandTable(OffsetTable):
    """A file's commands in the order they are written, stored as offsets: five numbers a command (start, end,
    args_start, args_end, index of its first argument) and two an argument (start, end)."""

    def __init__(self, data: bytes):
        self.data = data
        code = "I" if len(data) < 2**32 else "Q"
        self.names: list[str] = []
        self.bounds = array(code)
        self.spans = array(code)

    def add(self, node: tree_sitter.Node, shift: int) -> None:
        """The command `node` of a tree parsed from the file's bytes at `shift` on."""
        children = node.children
        head = children[0]
        self.names.append(intern(head.text.decode("utf-8", "surrogateescape").lower()))
        open_paren = next((c for c in children if c.type == "("), None)
        close_paren = next((c for c in reversed(children) if c.type == ")"), None)
        first = len(self.spans) // 2
        for child in children:
            if child.type == "argument_list":
                for a in child.children:
                    if a.type == "argument":
                        self.spans.append(a.start_byte + shift)
                        self.spans.append(a.end_byte + shift)
        start = open_paren.end_byte if open_paren else head.end_byte
        end = close_paren.start_byte if close_paren else node.end_byte
        self.bounds.extend((node.start_byte + shift, node.end_byte + shift, start + shift, end + shift, first))

    def __len__(self) -> int:
        return len(self.names)

    def _make(self, i: int) -> Command:
        b, data = self.bounds, self.data
        k = 5 * i
        last = b[k + 9] if k + 5 < len(b) else len(self.spans) // 2
        spans = self.spans[2 * b[k + 4]:2 * last]
        starts, ends = spans[::2], spans[1::2]
        args = tuple([Arg(data[s:e].decode("utf-8", "surrogateescape"), s, e) for s, e in zip(starts, ends)])
        return Command(self.names[i], b[k], b[k + 1], args, b[k + 2], b[k + 3])


def read_commands(root: tree_sitter.Node, shift: int, table: CommandTable) -> None:
    """Every command under `root`, in the order they are written, into `table`."""
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type in COMMAND_NODES:
            table.add(node, shift)
        stack.extend(reversed(node.children))


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


def parse_commands(data: bytes, chunk: int | None = None) -> tuple[CommandTable, list[tuple[int, int]]]:
    """The commands of `data` and its parse errors, parsed in pieces of about `chunk` bytes (cmake_chunks.CHUNK by
    default) where it cuts cleanly, whole otherwise."""
    table = CommandTable(data)
    bounds = [0, *cmake_chunks.cuts(data, chunk or cmake_chunks.CHUNK), len(data)]
    for start, end in zip(bounds, bounds[1:]):
        root = parse(data[start:end] if len(bounds) > 2 else data).root_node
        if root.has_error and len(bounds) > 2:
            return parse_commands(data, len(data) + 1)
        read_commands(root, start, table)
        if root.has_error:
            return table, errors_of(root)
    return table, []


class CMakeContext(FileContext):
    kind = "cmake"
    streamed = True  # its rules run with their findings packed as made (migrate/streamed.py)
    tables = ("line_starts", "_parsed")

    @cached_property
    def _parsed(self) -> tuple[CommandTable, list[tuple[int, int]]]:
        return parse_commands(self.data)

    @property
    def commands(self) -> CommandTable:
        return self._parsed[0]

    def named(self, *names: str) -> Iterator[Command]:
        """The commands of these names, in order, each made when reached (a generated file has hundreds of
        thousands)."""
        wanted = {n.lower() for n in names}
        table = self.commands
        return (table[i] for i, name in enumerate(table.names) if name in wanted)

    def parse_errors(self) -> list[tuple[int, int]]:
        return list(self._parsed[1])
