"""A Dockerfile's tree that one instruction the grammar fails on does not cost: the grammar reads a copy of the file
with the same byte offsets, and an instruction it cannot read on its own is blanked out of that copy.

tree-sitter-dockerfile 0.2 fails on some instructions Docker builds (`LABEL key = "value"`, an `ENV` value quoted as
`'"'"'`, a `RUN` whose shell text holds `\\[`), and where it fails its error can swallow the instructions after it;
it also reads a line with trailing blanks, or a `COPY` without arguments, as continued, and takes the next
instruction in without an error. So when the file's tree has errors, or an instruction node runs past the end of
the instruction Docker reads there, each instruction (migrate/deploy/docker_instructions.py, split as Docker splits
them) is parsed on its own:

- a shell-form `RUN`/`CMD`/`ENTRYPOINT` that fails is read with its shell text written as `x`s in the copy: Docker
  hands that text to the shell unread, and the rules read it from the file's bytes with the bash grammar;
- any other instruction that fails is replaced by blanks in the copy (line breaks kept, so lines and offsets stay).

The copy is then parsed again (and where the tree still disagrees with Docker, the instructions that hold the
disagreement are blanked too, at most `_ROUNDS` times). The rules read every other instruction from that one tree
and edit the file's own bytes at its nodes' spans; each blanked instruction is reported (INP001, migrate/fixing.py)
at its line with the places the grammar stopped. Only a file whose tree disagrees is parsed instruction by
instruction, one parse each: linear in the file.

The copy also reads what the grammar does not know but Docker does: `\\r\\n` line ends (the `\\r` becomes a line
break: an empty line, which the grammar skips inside a continuation and a heredoc, where a blank made it fail),
trailing blanks on an instruction's lines (line breaks too), a last line without its line break (one is added), a
byte order mark (line breaks), and under `# escape=`` ` the backtick that continues a line (a backslash in the copy;
a backslash at a line's end is then plain text: an `_`).
"""
from __future__ import annotations

import bisect
import json
import re
from dataclasses import dataclass
from typing import Callable

import tree_sitter

from migrate.deploy.docker_instructions import BOM, Instruction, Layout, layout

_LINE_END = re.compile(rb"([`\\]?)([ \t]*)\n")  # in the copy, whose `\r\n` are `\n\n` already
_SHELL_KEYWORDS = {b"RUN", b"CMD", b"ENTRYPOINT"}
# the keyword (after ONBUILD) and its --flags, then the text
_SHELL_HEAD = re.compile(rb"[ \t]*(?:[Oo][Nn][Bb][Uu][Ii][Ll][Dd][ \t]+)?([A-Za-z]+)(?:[ \t]+--\S+)*[ \t]+")
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
        copy[:len(BOM)] = b"\n" * len(BOM)
    for match in re.finditer(rb"\r\n", copy):
        copy[match.start()] = 0x0A
    for instruction in found.instructions:
        for match in _LINE_END.finditer(copy, instruction.start, instruction.lines_end):
            copy[match.start(2):match.end(2)] = b"\n" * (match.end(2) - match.start(2))
            if match[1] and found.escape == b"`":
                copy[match.start(1)] = 0x5C if match[1] == b"`" else 0x5F
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


def _parsed_alone(parse, piece: bytes) -> tree_sitter.Tree:
    return parse(piece if piece.endswith(b"\n") else piece + b"\n")


def _masked(piece: bytes, heredoc: bool) -> bytes | None:
    """`piece`, one instruction of the copy, with the shell text of a shell-form `RUN`, `CMD` or `ENTRYPOINT` (also
    after `ONBUILD`) written as `x`s (blanks, line breaks, continuations and comment lines kept), for the grammar to
    read it as shell text whatever it holds: Docker hands that text to the shell unread, and the rules read the
    file's own bytes there. None for other instructions, exec form and heredocs."""
    head = None if heredoc else _SHELL_HEAD.match(piece)
    if head is None or head[1].upper() not in _SHELL_KEYWORDS:
        return None
    if piece[head.end():head.end() + 1] in (b"\n", b"") or _exec_form(piece[head.end():]):
        return None
    out = bytearray(piece)
    at = head.end()
    while at < len(out):
        newline = out.find(b"\n", at)
        end = len(out) if newline < 0 else newline
        line = out[at:end]
        if not line.lstrip(b" \t").startswith(b"#"):
            body = line[:-1] if line.endswith(b"\\") else line  # a continuation stays one
            out[at:at + len(body)] = bytes(c if c in b" \t" else 0x78 for c in body)
        at = end + 1
    return bytes(out)


def _exec_form(text: bytes) -> bool:
    """Whether an instruction's arguments are a JSON array of strings, once its continuations are joined as Docker
    joins them (then Docker runs no shell); anything else Docker runs in shell form, `['a']` too."""
    if not text.startswith(b"["):
        return False
    lines = [line for line in text.split(b"\n") if not line.lstrip(b" \t").startswith(b"#")]
    joined = b"".join(line[:-1] if line.endswith(b"\\") else line for line in lines)
    try:
        words = json.loads(joined.decode("utf-8", "surrogateescape"))
    except ValueError:
        return False
    return isinstance(words, list) and all(isinstance(w, str) for w in words)


def read(data: bytes, parse: Callable[[bytes], tree_sitter.Tree]) -> Reading:
    """The tree of a Dockerfile, with the instructions the grammar could not read blanked out of it; the tree still
    has errors only where blanking every instruction that holds one did not clear them."""
    copy, found = grammar_copy(data)
    instructions = found.instructions
    tree = parse(bytes(copy))
    if not _faults(tree, instructions):
        return Reading(tree, found.escape, ())
    blanked: dict[int, Blanked] = {}
    for i, instruction in enumerate(instructions):
        piece = bytes(copy[instruction.start:instruction.end])
        alone = _parsed_alone(parse, piece)
        if not alone.root_node.has_error:
            continue
        masked = _masked(piece, instruction.lines_end != instruction.end)
        if masked is not None and not _parsed_alone(parse, masked).root_node.has_error:
            copy[instruction.start:instruction.end] = masked
            continue
        blanked[i] = Blanked(instruction, tuple(_errors(alone.root_node, instruction.start)[:5]))
    for _ in range(_ROUNDS):
        for b in blanked.values():
            _blank(copy, b.instruction)
        tree = parse(bytes(copy))
        more = {i: at for i, at in _faults(tree, instructions).items() if i >= 0 and i not in blanked}
        if not more:
            break
        blanked.update((i, Blanked(instructions[i], tuple(at[:5]))) for i, at in more.items())
    return Reading(tree, found.escape, tuple(blanked[i] for i in sorted(blanked)))


def _faults(tree: tree_sitter.Tree, instructions: tuple[Instruction, ...]) -> dict[int, list[int]]:
    """Where the tree and Docker disagree, by instruction (its index, then file bytes): an error, or an instruction
    node that runs on past the end of the instruction it starts in (the grammar reads a line with trailing blanks,
    or `COPY` without arguments, as continued)."""
    starts = [instruction.start for instruction in instructions]

    def owner(at: int) -> int | None:
        i = bisect.bisect_right(starts, at) - 1
        return i if i >= 0 and at < instructions[i].end else None

    found: dict[int, list[int]] = {}
    root = tree.root_node
    for at in _errors(root, 0) if root.has_error else ():
        i = owner(at)
        found.setdefault(-1 if i is None else i, []).append(at)  # -1: outside every instruction
    for node in root.named_children:
        i = owner(node.start_byte)
        if node.type != "comment" and i is not None and node.end_byte > instructions[i].end:
            found.setdefault(i, []).append(instructions[i].end)
    return found
