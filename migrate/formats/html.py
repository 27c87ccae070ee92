"""html: the report as one self-contained page (migrate.render.html)."""
from __future__ import annotations

from migrate.formats import Context, Format


def report(r, c: Context) -> str:
    from migrate.render import html

    return html.render(r, c.codes)


FORMAT = Format("html", "one self-contained page", {"report": report}, rank=10)
