"""Blocks of C++ that a rule writes into a file (CPP053's software textures, CPP058's emulation settings): read from
a header beside this module, guarded by a marker macro so that a file that gets one twice through its headers
compiles, and placed after the last #include before the first use."""
import re
from pathlib import Path

from migrate.cpp import parse
from migrate.cpp.includes import includes
from migrate.cpp.spelling import hip_spelling
from migrate.model import Edit, Severity


def text(header: str, newline: str = "\n") -> str:
    """The block in migrate/cpp/HEADER, with the file's newline."""
    body = (Path(__file__).parent / header).read_text(encoding="utf-8").rstrip("\n")
    return body.replace("\n", newline)


def span(data: bytes, marker: str) -> tuple[int, int]:
    """Where the block guarded by MARKER already is in the file ((-1, -1) where it is not): from the marker's first
    mention to the end of `#endif // MARKER`."""
    start = data.find(marker.encode())
    if start < 0:
        return -1, -1
    end = re.compile(rb"#endif[ \t]*//[ \t]*" + re.escape(marker.encode())).search(data, start)
    return start, end.end() if end else -1


CONDITIONAL = {"preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef"}


def sites(ctx, pattern: re.Pattern[bytes], marker: str) -> tuple[bool, list[re.Match[bytes]]]:
    """Whether the file has the block guarded by MARKER, and the matches of PATTERN outside it whose first group
    stands in code or a macro body."""
    start, end = span(ctx.data, marker)
    found = [m for m in pattern.finditer(ctx.data) if not start <= m.start() < end
             and ctx.locate(m.start(1), m.end(1))[0] in (parse.Context.CODE, parse.Context.MACRO)]
    return start >= 0, found


def place(ctx, first: int, block: str) -> Edit:
    """The edit that writes BLOCK (with ctx's newlines) after the last #include before offset FIRST that every
    conditional group around it also holds FIRST (not one in an `#else` that the use is outside of), at the start
    of a file with none."""
    before = [m for m, _ in includes(ctx) if m.end() <= first and _reaches(ctx, m.start(), first)]
    if not before:
        return Edit(0, 0, block + ctx.newline)
    end = before[-1].end()
    if ctx.data[end - 1:end] == b"\n":
        return Edit(end, end, block + ctx.newline)
    return Edit(end, end, ctx.newline + block)


def _reaches(ctx, at: int, first: int) -> bool:
    """Whether every preprocessor conditional group around offset AT also holds offset FIRST."""
    node = ctx.node_at(at, at + 1)
    while node is not None:
        if node.type in CONDITIONAL and not node.start_byte <= first < node.end_byte:
            return False
        node = node.parent
    return True


def cuda_sites(ctx, pattern: re.Pattern[bytes], marker: str) -> tuple[bool, list[re.Match[bytes]]]:
    """`sites`, less the matches already in HIP's spelling (the block's own names, qualified)."""
    present, found = sites(ctx, pattern, marker)
    return present, [m for m in found if not m.group(1).startswith(b"hip")]


def qualified(rule, ctx, found, present: bool, block: str, namespace: str, message):
    """A finding for each CUDA name of FOUND (matches whose first group is the name) that writes it as NAMESPACE::
    its HIP spelling, the first one also writing BLOCK where the file lacks it; MESSAGE(name, written) says why."""
    insert = [] if present else [place(ctx, found[0].start(), block)]
    for m in found:
        name = m.group(1).decode()
        written = f"{namespace}::{hip_spelling(name)}"
        yield rule.finding(ctx, m.start(1), m.end(1), message(name, written),
                           edits=[*insert, Edit(m.start(1), m.end(1), written)], title=f"Use {written}")


def too_old(rule, ctx, found, message):
    """An error for each CUDA name of FOUND where the target release is older than the block needs; MESSAGE(name,
    release) says what it lacks."""
    release = ".".join(map(str, ctx.target_tuple))
    for m in found:
        yield rule.finding(ctx, m.start(1), m.end(1), message(m.group(1).decode(), release), severity=Severity.ERROR)
