"""Unified diffs as HTML with the source language's syntax colours (pygments), for the HTML report.

Each hunk's lines are highlighted together without their +/-/space prefix (so a comment or string spanning
lines is coloured right), by the lexer pygments picks for the file name; the formatter closes its spans at
every line end, so the output splits back into the same lines, each then marked added, removed or context.
"""
from __future__ import annotations

from functools import lru_cache
from html import escape

from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import get_lexer_for_filename
from pygments.lexers.special import TextLexer
from pygments.util import ClassNotFound

CSS_SCOPE = ".diff"
KINDS = {"+": "add", "-": "del", " ": "ctx", "\\": "ctx"}


@lru_cache(maxsize=64)
def lexer_for(name: str):
    special = {"Makefile": "x.mk", "makefile": "x.mk", "GNUmakefile": "x.mk", "CMakeLists.txt": "x.cmake",
               "Dockerfile": "Dockerfile"}
    try:
        return get_lexer_for_filename(special.get(name, name), stripnl=False, ensurenl=False)
    except ClassNotFound:
        return TextLexer(stripnl=False, ensurenl=False)


FORMATTER = HtmlFormatter(nowrap=True)


def css() -> str:
    return FORMATTER.get_style_defs(CSS_SCOPE)


def _hunk(lines: list[str], path: str) -> list[str]:
    """Rows for the body lines of one hunk."""
    body = "\n".join(line[1:] for line in lines)
    coloured = highlight(body, lexer_for(path.rsplit("/", 1)[-1]), FORMATTER).split("\n")
    coloured += [""] * (len(lines) - len(coloured))
    rows = []
    for line, html in zip(lines, coloured):
        kind = KINDS.get(line[:1], "ctx")
        if line.startswith("\\"):
            html = escape(line)
        rows.append(f'<tr class="{kind}"><td class="sign">{escape(line[:1])}</td><td>{html}</td></tr>')
    return rows


def diff_rows(text: str, path: str) -> str:
    """The table rows of a unified diff: hunk headers, then coloured lines."""
    rows: list[str] = []
    hunk: list[str] = []
    for line in text.splitlines():
        if line.startswith(("--- ", "+++ ")) and not hunk:
            continue
        if line.startswith("@@"):
            rows += _hunk(hunk, path)
            hunk = []
            rows.append(f'<tr class="hunk"><td></td><td>{escape(line)}</td></tr>')
        else:
            hunk.append(line)
    rows += _hunk(hunk, path)
    return "\n".join(rows)
