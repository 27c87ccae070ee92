"""json: one JSON document (docs/json.md; the report's in docs/report.md; compare's in docs/bench.md)."""
from __future__ import annotations

from migrate.formats import Context, Format


def migration(m, c: Context) -> str:
    from migrate.render import json as json_render

    return json_render.render(m, c.command)


def check(result, c: Context) -> str:
    from migrate.check import report

    return report.render_json(result)


def report(r, c: Context) -> str:
    from migrate.render import report_json as document

    return document.render(r)


def compare(result, c: Context) -> str:
    from migrate.render import bench

    return bench.render_compare_json(result)


def doctor(report, c: Context) -> str:
    from migrate.render import doctor as doctor_render

    return doctor_render.render_json(report)


FORMAT = Format("json", "one JSON document", {"migration": migration, "check": check, "report": report,
                                              "compare": compare, "doctor": doctor}, rank=30)
