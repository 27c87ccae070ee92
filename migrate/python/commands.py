"""The commands a Python file runs through `subprocess` and `os` (`subprocess.run/call/check_call/check_output/Popen/
getoutput/getstatusoutput`, `os.system`, `os.popen`), with the command as a list (`["nvcc", "-V"]`) or a string
(`"nvidia-smi -L"`), for the rules over diagnostic programs (PY011 nvidia-smi, PY072 nvcc).

A command held by a name bound once, a `shutil.which(...)` result or a module helper's return value is followed
(migrate/python/origins.py), and `origin` says how. The program may be a path built at run time whose last part is
literal: `os.path.join(CUDA_HOME, "bin", "nvcc")`, `CUDA_HOME + "/bin/nvcc"`, `f"{CUDA_HOME}/bin/nvcc"` (no fix can
be written there, so `literal` is False). Each command says whether its output is read (a reader, `capture_output`,
`stdout=PIPE` or a file, shell operators in a string) and whether its exit status is (`check=True`, `check_call`, a
result that is used).
"""
from __future__ import annotations

import os
import shlex
from dataclasses import dataclass
from typing import Iterator

import libcst as cst

from migrate.python.index import arguments, index, string_value
from migrate.python.origins import resolved, resolved_string

RUNNERS = {"subprocess.run", "subprocess.call", "subprocess.check_call", "subprocess.Popen", "os.system"}
READERS = {"subprocess.check_output", "subprocess.getoutput", "subprocess.getstatusoutput", "os.popen"}
SHELL = ("|", ">", "<", ";", "&&", "||", "`", "$(")


@dataclass(frozen=True)
class Command:
    use: cst.BaseExpression  # the command as the call writes it
    node: cst.BaseExpression  # what it stands for: a list, a tuple or a string literal
    words: tuple[str | None, ...]  # the program's path first; None for a word built at run time
    program: str  # the program's file name (`nvcc`)
    origin: str  # how `node` was reached from `use` ("" when the call writes it)
    literal: bool  # every word a plain string literal written at `node`
    parsed: bool  # the output is read
    checked: bool  # the exit status is read

    @property
    def at(self) -> cst.BaseExpression:
        """Where a finding lands: at the use when the command came from elsewhere, else at the command itself."""
        return self.use if self.origin else self.node

    @property
    def options(self) -> tuple[str, ...]:
        return tuple(w for w in self.words[1:] if w is not None)

    @property
    def shown(self) -> str:
        """The command as messages quote it (`...` for a word built at run time), with its origin."""
        text = " ".join([self.program, *(w if w is not None else "..." for w in self.words[1:])])
        return f"{text} (through {self.origin})" if self.origin else text


def commands(ctx, program: str) -> Iterator[Command]:
    """Every command of the file that runs `program` (by name or by a path ending in it)."""
    if program.encode() not in ctx.data:  # cheap test first: most files never name it
        return
    idx = index(ctx)
    for call in idx.calls:
        names = ctx.qualified_names(call.func)
        if not names & (RUNNERS | READERS):
            continue
        args = arguments(call)
        command = args.get(0, "args")
        if command is None:
            continue
        check = args.keywords.get("check")
        checked = not isinstance(idx.parent(call), cst.Expr) or "subprocess.check_call" in names \
            or (check is not None and not (isinstance(check.value, cst.Name) and check.value.value == "False"))
        found = _command(ctx, command.value, bool(names & READERS) or _captured(ctx, args), checked)
        if found is not None and found.program == program:
            yield found


def _command(ctx, use: cst.BaseExpression, parsed: bool, checked: bool) -> Command | None:
    node, origin = use, ""
    if not isinstance(node, (cst.List, cst.Tuple)) and string_value(node) is None:
        node, origin = resolved(ctx, node)  # a name, shutil.which(...) or a helper's result: followed
    if isinstance(node, (cst.List, cst.Tuple)):
        if not node.elements:
            return None
        words = [resolved_string(ctx, e.value)[0] for e in node.elements[1:]]
        program, how = resolved(ctx, node.elements[0].value)
        first = string_value(program) or path_tail(program)
        if first is None:
            return None
        literal = not origin and all(isinstance(e.value, cst.SimpleString) for e in node.elements)
        return Command(use, node, (first, *words), os.path.basename(first), origin or how, literal, parsed, checked)
    value = string_value(node)
    if value is None:
        return None
    try:
        words = shlex.split(value)
    except ValueError:
        return None
    if not words:
        return None
    return Command(use, node, tuple(words), os.path.basename(words[0]), origin,
                   not origin and isinstance(node, cst.SimpleString), parsed or any(op in value for op in SHELL),
                   checked)


def path_tail(node: cst.BaseExpression) -> str | None:
    """The literal end of a path built at run time: `os.path.join(home, "bin", "nvcc")`, `home + "/bin/nvcc"`,
    `f"{home}/bin/nvcc"` give "bin/nvcc"-like text whose file name is the program's; None otherwise."""
    if isinstance(node, cst.Call) and node.args and isinstance(node.func, cst.Attribute) \
            and node.func.attr.value == "join":
        return string_value(node.args[-1].value)
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add):
        return string_value(node.right)
    if isinstance(node, cst.FormattedString) and node.parts and isinstance(node.parts[-1], cst.FormattedStringText):
        return node.parts[-1].value
    return None


def _captured(ctx, args) -> bool:
    capture = args.keywords.get("capture_output")
    if capture is not None and not (isinstance(capture.value, cst.Name) and capture.value.value in ("False", "None")):
        return True
    stdout = args.keywords.get("stdout")
    if stdout is None:
        return False
    value = stdout.value
    if isinstance(value, cst.Name) and value.value == "None":
        return False
    return not ctx.qualified_names(value) & {"subprocess.DEVNULL"}
