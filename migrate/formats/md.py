"""md: the report as a pull-request comment, GitHub-flavoured Markdown (migrate.render.markdown)."""
from __future__ import annotations

from migrate.formats import Context, Format


def report(r, c: Context) -> str:
    from migrate.render import markdown

    return markdown.render(r, c.codes)


FORMAT = Format("md", "a pull-request comment", {"report": report}, rank=20)
