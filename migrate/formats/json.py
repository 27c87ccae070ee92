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


def build(result, c: Context) -> str:
    from migrate.render import build as build_render

    return build_render.render_json(result)


def kernels(diff, c: Context) -> str:
    from migrate.render import kernels as kernels_render

    return kernels_render.render_json(diff)


def bench(result, c: Context) -> str:
    return result.dumps()  # the results file itself (docs/bench.md)


FORMAT = Format("json", "one JSON document", {"migration": migration, "check": check, "report": report,
                                              "compare": compare, "doctor": doctor, "build": build,
                                              "kernels": kernels, "bench": bench}, rank=30)
