"""A Dockerfile's tree that one instruction the grammar fails on does not cost: the grammar reads a copy of the file
with the same byte offsets, and an instruction it cannot read on its own is blanked out of that copy.

tree-sitter-dockerfile 0.2 fails on some instructions Docker builds (`LABEL key = "value"`, an `ENV` value quoted as
`'"'"'`, a `RUN` whose shell text holds `\\[`), and where it fails its error can swallow the instructions after it.
So when the file's tree has errors, each instruction (migrate/deploy/docker_instructions.py, split as Docker splits
them) is parsed on its own; those that fail are replaced by blanks in the copy (line breaks kept, so lines and
offsets stay), and the copy is parsed again. The rules then read every other instruction from that one tree and edit
the file's own bytes at its nodes' spans; each blanked instruction is reported (INP001, migrate/fixing.py) at its
line with the places the grammar could not read. Parsing instruction by instruction only happens for a file whose
tree has errors, and costs one parse per instruction: linear in the file.

The copy also reads what the grammar does not know but Docker does: `\\r\\n` line ends (the `\\r` becomes a line break:
an empty line, which the grammar skips after a continuation, where a blank would end it),
a last line without its line break (one is added), a byte order mark (blanks), and under `# escape=`` ` the
backtick that continues a line (a backslash in the copy; a backslash at a line's end is then plain text, a blank).
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from typing import Callable

import tree_sitter

from migrate.deploy.docker_instructions import BOM, Instruction, Layout, layout

_LINE_END = re.compile(rb"([`\\]?)([ \t]*)\r?\n")
_ROUNDS = 3  # re-parses after blanking: the first finds the instructions that fail alone; later ones, any left


@dataclass(frozen=True)
class Blanked:
    """An instruction blanked out of the grammar's copy, and the file bytes where the grammar failed in it."""

    instruction: Instruction
    errors: tuple[int, ...]


@dataclass(frozen=True)
class Reading:
    tree: tree_sitter.Tree
    escape: bytes  # the line-continuation character (`# escape=`)
    blanked: tuple[Blanked, ...]


def grammar_copy(data: bytes) -> tuple[bytearray, Layout]:
    """The copy of `data` the grammar reads (same offsets; a line break added after a last line without one), and
    the file's layout."""
    found = layout(data)
    copy = bytearray(data if data.endswith(b"\n") or not data else data + b"\n")
    if copy.startswith(BOM):
        copy[:len(BOM)] = b"   "
    for match in re.finditer(rb"\r\n", copy):
        copy[match.start()] = 0x0A  # an empty line: the grammar reads no `\r` after a line's continuation or heredoc
    if found.escape == b"`":
        for instruction in found.instructions:
            for match in _LINE_END.finditer(copy, instruction.start, instruction.lines_end):
                if match[1]:
                    copy[match.start()] = 0x5C if match[1] == b"`" else 0x20
    return copy, found


def _errors(node: tree_sitter.Node, shift: int) -> list[int]:
    """File bytes (node offsets plus `shift`) where the grammar failed under `node`, in document order: in an ERROR
    node, where it stops reading: its first child after the first, inside a nested ERROR where that is one."""
    out, stack = [], [node]
    while stack:
        n = stack.pop()
        if n.type == "ERROR":
            out.append(_stop(n) + shift)
        elif n.is_missing:
            out.append(n.start_byte + shift)
        elif n.has_error:
            stack.extend(reversed(n.children))
    return out


def _stop(error: tree_sitter.Node) -> int:
    for child in error.children[1:]:
        return _stop(child) if child.type == "ERROR" else child.start_byte
    return error.start_byte


def _blank(copy: bytearray, instruction: Instruction) -> None:
    for i in range(instruction.start, min(instruction.end, len(copy))):
        if copy[i] != 0x0A:
            copy[i] = 0x20


def read(data: bytes, parse: Callable[[bytes], tree_sitter.Tree]) -> Reading:
    """The tree of a Dockerfile, with the instructions the grammar could not read blanked out of it; the tree still
    has errors only where blanking every instruction that holds one did not clear them."""
    copy, found = grammar_copy(data)
    instructions = found.instructions
    tree = parse(bytes(copy))
    if not tree.root_node.has_error:
        return Reading(tree, found.escape, ())
    blanked: dict[int, Blanked] = {}
    for i, instruction in enumerate(instructions):
        alone = parse(bytes(copy[instruction.start:instruction.end]))
        if alone.root_node.has_error:
            blanked[i] = Blanked(instruction, tuple(_errors(alone.root_node, instruction.start)[:5]))
    for _ in range(_ROUNDS):
        for u in blanked.values():
            _blank(copy, u.instruction)
        tree = parse(bytes(copy))
        if not tree.root_node.has_error:
            break
        more = _holding(instructions, _errors(tree.root_node, 0), blanked)
        if not more:
            break
        blanked.update(more)
    return Reading(tree, found.escape, tuple(blanked[i] for i in sorted(blanked)))


def _holding(instructions, errors: list[int], known: dict[int, Blanked]) -> dict[int, Blanked]:
    """The instructions not in `known` that hold one of the file bytes `errors`, with those bytes."""
    starts = [instruction.start for instruction in instructions]
    found: dict[int, list[int]] = {}
    for error in errors:
        i = bisect.bisect_right(starts, error) - 1
        if i >= 0 and error < instructions[i].end and i not in known:
            found.setdefault(i, []).append(error)
    return {i: Blanked(instructions[i], tuple(at[:5])) for i, at in found.items()}
