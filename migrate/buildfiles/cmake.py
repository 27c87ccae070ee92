"""CMake files parsed with tree-sitter-cmake: commands and their arguments with byte spans."""
from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import cached_property

import tree_sitter
import tree_sitter_cmake

from migrate.context import FileContext

LANGUAGE = tree_sitter.Language(tree_sitter_cmake.language())
_local = threading.local()


def parse(data: bytes) -> tree_sitter.Tree:
    p = getattr(_local, "parser", None)
    if p is None:
        p = _local.parser = tree_sitter.Parser(LANGUAGE)
    return p.parse(data)


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class Command:
    name: str  # lower-cased: CMake command names are case-insensitive
    start: int
    end: int
    args: tuple[Arg, ...]
    args_start: int  # just after "("
    args_end: int  # at ")"


class CMakeContext(FileContext):
    kind = "cmake"

    @cached_property
    def tree(self) -> tree_sitter.Tree:
        return parse(self.data)

    @cached_property
    def commands(self) -> list[Command]:
        out: list[Command] = []
        stack = [self.tree.root_node]
        while stack:
            node = stack.pop()
            if node.type in ("normal_command", "if_command", "elseif_command", "foreach_command",
                             "while_command", "function_command", "macro_command"):
                out.append(self._command(node))
            stack.extend(reversed(node.children))
        return out

    def _command(self, node: tree_sitter.Node) -> Command:
        head = node.children[0]
        name = head.text.decode("utf-8", "surrogateescape").lower()
        args: list[Arg] = []
        open_paren = next((c for c in node.children if c.type == "("), None)
        close_paren = next((c for c in reversed(node.children) if c.type == ")"), None)
        for child in node.children:
            if child.type == "argument_list":
                args.extend(Arg(a.text.decode("utf-8", "surrogateescape"), a.start_byte, a.end_byte)
                            for a in child.children if a.type == "argument")
        start = open_paren.end_byte if open_paren else head.end_byte
        end = close_paren.start_byte if close_paren else node.end_byte
        return Command(name, node.start_byte, node.end_byte, tuple(args), start, end)

    def named(self, *names: str) -> list[Command]:
        wanted = {n.lower() for n in names}
        return [c for c in self.commands if c.name in wanted]

    def parse_errors(self) -> list[tuple[int, int]]:
        root = self.tree.root_node
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
