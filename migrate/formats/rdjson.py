"""rdjson: reviewdog's diagnostics, with fixes as suggested changes (migrate.render.rdjson)."""
from __future__ import annotations

from migrate.formats import Context, Format


def check(result, c: Context) -> str:
    from migrate.check import report

    return report.rdjson(result)


FORMAT = Format("rdjson", "reviewdog diagnostics", {"check": check}, rank=60)
