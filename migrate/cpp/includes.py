"""The real `#include` lines of a file, found by a line pattern; confirmed on the tree only where the text leaves a
doubt, so that a file with nothing else to migrate is not parsed (and not reported as unparsable) for its includes."""
import re

INCLUDE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*([<"])([^>"\r\n]+)[>"][^\r\n]*(\r?\n)?', re.M)


def includes(ctx):
    """(match, header) of every real #include line of the file (not in a comment); found once per file,
    though several rules ask."""
    return iter(ctx.once("includes", lambda c: list(_includes(c))))


def _plainly_code(data: bytes, start: int) -> bool:
    """Is the line at `start` (a `#` line) surely not inside a comment, a string or a macro body? It is when no
    block comment is open before it, no raw string literal comes before it and the line before does not end in a
    backslash; anything else is left to the tree."""
    opened = data.rfind(b"/*", 0, start)
    if opened >= 0 and data.find(b"*/", opened + 2, start) < 0:
        return False
    if data.find(b'R"', 0, start) >= 0:
        return False
    end = start
    while end > 0 and data[end - 1] in b"\r\n":
        end -= 1
    return end == 0 or data[end - 1] != 0x5C  # a backslash


def _includes(ctx):
    for m in INCLUDE.finditer(ctx.data):
        if _plainly_code(ctx.data, m.start()):
            yield m, m.group(2).decode("utf-8", "replace")
            continue
        node = ctx.node_at(m.start(2), m.end(2))
        while node is not None and node.type != "preproc_include":
            if node.type in ("comment", "translation_unit", "preproc_arg"):
                node = None
                break
            node = node.parent
        if node is not None:
            yield m, m.group(2).decode("utf-8", "replace")

