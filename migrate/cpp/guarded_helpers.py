"""Helpers a HIP build for AMD cannot compile, set apart so that the code around them still builds (CPP049), and
the calls that then reach nothing (CPP050).

A project's shared header often defines helpers for the whole library API: NVIDIA's `cublas_utils.h` has
`getFixedPointWorkspaceSizeInBytes(..., cudaEmulationMantissaControl, ...)` (CUDA 13's BLAS emulation) and
`cusolver_utils.h` has `get_cusolver_refinement_solver()` returning `cusolverIRSRefinement_t` (iterative refinement).
hipBLAS and hipSOLVER have neither, so every unit that includes the header stops there, whether it calls the helper
or not: 119 of CUDALibrarySamples' units. A function at namespace scope that names API the packs list as having no
HIP counterpart (in a header: anywhere in it; elsewhere: in its signature, which no unit can declare) is compiled for
NVIDIA only, `#if !defined(__HIP_PLATFORM_AMD__) && !defined(__HIP__)`, and so are the header functions that call one; each call left in
code a HIP build compiles is a blocker at the call.

The guard's first line names what it guards and why, so a later run over the migrated tree (where the helper is
no longer compiled for HIP) finds the helper again and still reports its calls.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from migrate.cpp import platform
from migrate.cpp.parse import Context
from migrate.cpp.project_names import is_header
from migrate.cpp.unsupported import case_label, unsupported
from migrate.edits import decoded
from migrate.pathnames import shown

GUARD = "#if !defined(__HIP_PLATFORM_AMD__) && !defined(__HIP__)"
# HIP's headers define __HIP_PLATFORM_AMD__ (hipcc does not: a file that includes none yet has it undefined), clang
# defines __HIP__ for HIP code (a host file compiled as C++ has only the headers' macro): either means an AMD build.
# The guard's first line as CPP049 writes it ends in `// hipmigrate CPP049: f uses x, which HIP lacks`.
MARK = re.compile(rb"^[ \t]*#[ \t]*if[ \t]+!defined\(__HIP_PLATFORM_AMD__\) && !defined\(__HIP__\)[ \t]*//[ \t]*"
                  rb"hipmigrate CPP049: "
                  rb"([A-Za-z_]\w*) (?:uses|calls) ([A-Za-z_]\w*)[^\n]*\n", re.M)
SCOPE_NODES = ("translation_unit", "declaration_list", "linkage_specification", "namespace_definition",
               "preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef")
ROUNDS = 8  # header functions that call guarded ones, then those that call these, ...


@dataclass(frozen=True)
class Helper:
    name: str
    start: int  # the first byte of the line the function (or its `template <...>`) starts on
    end: int  # just after the line it ends on
    line: int  # the name's line
    name_start: int
    name_end: int
    why: str  # the name without a HIP counterpart it uses, or the guarded helper it calls
    why_line: int
    calls: bool  # `why` is a helper it calls, not API
    guarded: bool  # already inside CPP049's guard (a later run): reported, not guarded again


@dataclass(frozen=True)
class Analysis:
    helpers: tuple[Helper, ...]
    kept: frozenset[str]  # the names of the other functions at namespace scope, which a HIP build compiles

    @property
    def overloaded(self) -> frozenset[str]:
        """Guarded names that also have a definition or declaration HIP still compiles: a call may reach that one."""
        return self.kept & {h.name for h in self.helpers}


def where(path: str, line: int, why: str, calls: bool) -> str:
    """Where a guarded helper is and why, as CPP050's message and Options.guarded_helpers say it."""
    return f"{shown(path)}:{line}, where it {'calls' if calls else 'uses'} {why}, {'NVIDIA only too' if calls else 'which HIP lacks'}"


def analysis(ctx) -> Analysis:
    return ctx.once("guarded_helpers", _analyse)


def inside(helpers, offset: int) -> Helper | None:
    return next((h for h in helpers if h.start <= offset < h.end), None)


def _analyse(ctx) -> Analysis:
    header = is_header(ctx.path)
    marked = {m.end(): m for m in MARK.finditer(ctx.data)}
    # a `case` label on a value HIP lacks is CPP043's, which removes the case: no reason to guard the function
    missing = [t for t, known in unsupported(ctx)
               if known is not None and t.base == 0 and t.node is not None and not case_label(t)]
    if not missing and not marked:
        return Analysis((), frozenset())
    skipped = platform.skipped(ctx)
    missing = [t for t in missing if not platform.inside(skipped, t.start)]
    functions = list(_functions(ctx.tree.root_node))
    helpers: list[Helper] = []
    rest = []
    for node, name_node, body in functions:
        start, end = _line_start(ctx.data, node.start_byte), _line_end(ctx.data, node.end_byte)
        mark = marked.get(start)
        if mark is not None:
            # reported at the guard's comment: the function itself is code a HIP build skips, where reports are dropped
            helpers.append(Helper(decoded(name_node.text), start, end, _line(ctx, mark.start()), mark.start(1),
                                  mark.end(1), mark.group(2).decode(), _line(ctx, mark.start()),
                                  mark.group(0).find(b" calls ") >= 0, True))
            continue
        if start is None or end is None or platform.inside(skipped, node.start_byte):
            rest.append((node, name_node, body, start, end))
            continue
        limit = node.end_byte if header or body is None else body.start_byte
        used = next((t for t in missing if node.start_byte <= t.start < limit), None)
        if used is None or name_node.text == b"main":
            rest.append((node, name_node, body, start, end))
            continue
        helpers.append(_helper(ctx, node, name_node, start, end, used.name, _line(ctx, used.start), False, False))
    if header:
        _callers(ctx, helpers, rest, skipped)
    kept = {decoded(n.text) for node, n, _b, _s, _e in rest if not platform.inside(skipped, node.start_byte)}
    return Analysis(tuple(sorted(helpers, key=lambda h: h.start)), frozenset(kept))


def _helper(ctx, node, name_node, start, end, why, why_line, calls, guarded) -> Helper:
    return Helper(decoded(name_node.text), start, end, _line(ctx, name_node.start_byte), name_node.start_byte,
                  name_node.end_byte, why, why_line, calls, guarded)


def _callers(ctx, helpers: list[Helper], rest: list, skipped) -> None:
    """Header functions whose bodies call a guarded helper are guarded too, round after round."""
    kept = {decoded(n.text) for _node, n, _b, _s, _e in rest}
    for _ in range(ROUNDS):
        # an overloaded name is no reason: the call may reach an overload HIP compiles (helper_cuda.h's check() calls
        # _cudaGetErrorEnum, which has one overload per library)
        names = {h.name for h in helpers} - kept
        if not names or not rest:
            return
        pattern = calls_pattern(names)
        left = []
        for node, name_node, body, start, end in rest:
            call = None
            if body is not None and start is not None and end is not None and not platform.inside(skipped, node.start_byte):
                call = next(iter(calls(ctx, pattern, body.start_byte, body.end_byte, skipped)), None)
            if call is None or decoded(name_node.text) in names:
                left.append((node, name_node, body, start, end))
                continue
            helpers.append(_helper(ctx, node, name_node, start, end, call[0], _line(ctx, call[1]), True, False))
        if len(left) == len(rest):
            return
        rest[:] = left


def calls_pattern(names) -> re.Pattern[bytes]:
    alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    return re.compile(rb"(?<![\w.>$])(" + alternatives.encode() + rb")[ \t]*[(<]")


def calls(ctx, pattern: re.Pattern[bytes], start: int, end: int, skipped) -> list[tuple[str, int, int]]:
    """(name, start, end) of each call matched by `pattern` in [start, end) that a HIP build compiles: code, not a
    comment, a string or a macro body, and not the name of a declaration."""
    out = []
    for m, token in ctx.code_matches(pattern):
        if not start <= m.start(1) < end or token.context is not Context.CODE or platform.inside(skipped, m.start(1)):
            continue
        parent = token.node.parent if token.node is not None else None
        if parent is not None and parent.type in ("function_declarator", "qualified_identifier") and \
                parent.child_by_field_name("declarator" if parent.type == "function_declarator" else "name") == token.node:
            if parent.type == "function_declarator" or _declares(parent):
                continue
        out.append((token.name, m.start(1), m.end(1)))
    return out


def _declares(qualified) -> bool:
    node = qualified.parent
    return node is not None and node.type == "function_declarator"


def _functions(root):
    """(node, name, body or None) of each function defined or declared at namespace scope: a definition (or a
    `template` one) and a declaration of one function whose name is a plain identifier."""
    stack = [root]
    while stack:
        node = stack.pop()
        for child in node.named_children:
            if child.type in SCOPE_NODES:
                stack.append(child)
                continue
            inner = child
            if child.type == "template_declaration":
                inner = next((c for c in child.named_children if c.type in ("function_definition", "declaration")), None)
                if inner is None:
                    continue
            if inner.type not in ("function_definition", "declaration"):
                continue
            declarators = [c for c in inner.children_by_field_name("declarator")]
            if len(declarators) != 1:
                continue
            name = _function_name(declarators[0])
            if name is not None:
                yield child, name, inner.child_by_field_name("body")


def _function_name(node):
    while node is not None and node.type in ("pointer_declarator", "reference_declarator", "function_declarator"):
        if node.type == "function_declarator":
            name = node.child_by_field_name("declarator")
            return name if name is not None and name.type == "identifier" else None
        node = node.child_by_field_name("declarator")
    return None


def _line(ctx, offset: int) -> int:
    return ctx.span(offset, offset).line


def _line_start(data: bytes, offset: int) -> int | None:
    """The start of the line `offset` is on, when only blanks come before it there."""
    begin = data.rfind(b"\n", 0, offset) + 1
    return begin if not data[begin:offset].strip() else None


def _line_end(data: bytes, offset: int) -> int | None:
    """Just after the line `offset` ends on, when only blanks (or a line comment) follow it there."""
    stop = data.find(b"\n", offset)
    stop = len(data) if stop < 0 else stop
    after = data[offset:stop].strip()
    if after and not after.startswith(b"//"):
        return None
    return stop + 1 if stop < len(data) else stop
