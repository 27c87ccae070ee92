"""The real `#include` lines of a file, found by a line pattern and confirmed on the tree."""
import re

INCLUDE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*([<"])([^>"\r\n]+)[>"][^\r\n]*(\r?\n)?', re.M)


def includes(ctx):
    """(match, header) of every real #include line of the file (not in a comment); found once per file,
    though several rules ask."""
    found = ctx.memo.get("includes")
    if found is None:
        found = ctx.memo["includes"] = list(_includes(ctx))
    return iter(found)


def _includes(ctx):
    for m in INCLUDE.finditer(ctx.data):
        node = ctx.node_at(m.start(2), m.end(2))
        while node is not None and node.type != "preproc_include":
            if node.type in ("comment", "translation_unit", "preproc_arg"):
                node = None
                break
            node = node.parent
        if node is not None:
            yield m, m.group(2).decode("utf-8", "replace")
