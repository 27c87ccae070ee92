"""text: what a terminal shows, rich tables (coloured on a terminal); the default of every command."""
from __future__ import annotations

from migrate.formats import Context, Format
from migrate.render.console import captured


def migration(m, c: Context) -> str:
    from migrate.render import text

    return captured(lambda console: text.draw(m, console, c.command, c.codes, show_statistics=c.statistics), c.width,
                    c.color)


def check(result, c: Context) -> str:
    from migrate.check import report

    return report.text(result)


def report(r, c: Context) -> str:
    from migrate.render import report_text

    return captured(lambda console: report_text.render(r, console, c.codes), c.width, c.color)


def compare(result, c: Context) -> str:
    from migrate.render import bench

    return captured(lambda console: bench.render_compare_text(result, console), c.width, c.color)


def doctor(report, c: Context) -> str:
    from migrate.render import doctor as doctor_render

    return captured(lambda console: doctor_render.render_text(report, console), c.width, c.color)


def build(result, c: Context) -> str:
    from migrate.render import build as build_render

    return captured(lambda console: build_render.render_text(result, console), c.width, c.color)


def kernels(diff, c: Context) -> str:
    from migrate.render import kernels as kernels_render

    return captured(lambda console: kernels_render.render_text(diff, console), c.width, c.color)


def bench(result, c: Context) -> str:
    from migrate.render import bench as bench_render

    return captured(lambda console: bench_render.render_bench_text(result, console, None), c.width, c.color)


FORMAT = Format("text", "what a terminal shows", {"migration": migration, "check": check, "report": report,
                                                  "compare": compare, "doctor": doctor, "build": build,
                                                  "kernels": kernels, "bench": bench}, rank=0)
