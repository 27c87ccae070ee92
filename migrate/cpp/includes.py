"""The real `#include` lines of a file, found by a line pattern; confirmed on the tree only where the text leaves a
doubt, so that a file with nothing else to migrate is not parsed (and not reported as unparsable) for its includes."""
import bisect
import re

INCLUDE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*([<"])([^>"\r\n]+)[>"][^\r\n]*(\r?\n)?', re.M)


SPLICE_ONLY = re.compile(rb"[ \t]*\\\r?\n$")  # a line that is only a backslash: it continues into the next


def whole_line(data: bytes, m) -> tuple[int, int]:
    """What removing the include `m` removes: its line, and the lines before it that hold only a backslash
    (they continue into it, and with it gone would continue into whatever follows)."""
    start = m.start()
    while start > 0:
        before = data.rfind(b"\n", 0, start - 1) + 1
        if not SPLICE_ONLY.match(data, before, start):
            break
        start = before
    return start, m.end()


def includes(ctx):
    """(match, header) of every real #include line of the file (not in a comment); found once per file,
    though several rules ask."""
    return iter(ctx.once("includes", lambda c: list(_includes(c))))


class _Plain:
    """Is the line at `start` (a `#` line) surely not inside a comment, a string or a macro body? It is when no
    block comment is open before it, no raw string literal comes before it and the line before does not end in a
    backslash; anything else is left to the tree. The comment marks are found once, so each question is a binary
    search (a file of thousands of includes asked it in time proportional to the file each time)."""

    def __init__(self, data: bytes):
        self.data = data
        self.opens = [m.start() for m in re.finditer(rb"/\*", data)]
        self.closes = [m.start() for m in re.finditer(rb"\*/", data)]
        raw = data.find(b'R"')
        self.first_raw = len(data) if raw < 0 else raw

    def __call__(self, start: int) -> bool:
        data = self.data
        i = bisect.bisect_left(self.opens, start)
        if i:
            opened = self.opens[i - 1]  # the last /* before the line
            j = bisect.bisect_left(self.closes, opened + 2)
            if j == len(self.closes) or self.closes[j] + 2 > start:
                return False  # no */ after it and before the line
        if self.first_raw < start:
            return False
        end = start
        while end > 0 and data[end - 1] in b"\r\n":
            end -= 1
        return end == 0 or data[end - 1] != 0x5C  # a backslash


def _includes(ctx):
    plainly_code = _Plain(ctx.data)
    for m in INCLUDE.finditer(ctx.data):
        if plainly_code(m.start()):
            yield m, m.group(2).decode("utf-8", "surrogateescape")
            continue
        node = ctx.node_at(m.start(2), m.end(2))
        while node is not None and node.type != "preproc_include":
            if node.type in ("comment", "translation_unit", "preproc_arg"):
                node = None
                break
            node = node.parent
        if node is not None:
            yield m, m.group(2).decode("utf-8", "surrogateescape")

