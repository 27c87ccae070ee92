"""Output of `hipmigrate doctor`: a rich table of the checks and the summary, or JSON.

JSON: {"schema": 1, "command": "doctor",
       "checks": [{"name", "status" (ok|warning|error|info), "area" (build|run), "detail", "fix" (str|null)}, ...],
       "summary": {"can_build", "can_run", "message", "build", "run", "targets": [...],
                   "gpus": [{"index", "gfx", "name", "compute_units", "source"}], "counts": {"ok": n, ...}},
       "toolchains": [{"hipcc", "hip_version" (major.minor), "full_version", "clang", "origin", "default",
                       "compiles": [targets], "rejects": [targets]}, ...]}
"""
from __future__ import annotations

import json

from rich.console import Console
from rich.table import Table
from rich.text import Text

from migrate.doctor.model import DoctorReport, Status

SCHEMA_VERSION = 1
PLURALS = {"ok": "ok", "warning": "warnings", "error": "errors", "info": "info"}
STYLES = {Status.OK: "green", Status.WARNING: "yellow", Status.ERROR: "bold red", Status.INFO: "cyan"}


def as_dict(report: DoctorReport) -> dict:
    s = report.summary
    return {
        "schema": SCHEMA_VERSION, "command": "doctor",
        "checks": [{"name": c.name, "status": c.status.value, "area": c.area.value, "detail": c.detail, "fix": c.fix}
                   for c in report.checks],
        "summary": {
            "can_build": s.can_build, "can_run": s.can_run, "message": s.message, "build": s.build_note,
            "run": s.run_note, "targets": list(s.targets),
            "gpus": [{"index": g.index, "gfx": g.gfx, "name": g.name, "compute_units": g.compute_units,
                      "source": g.source} for g in s.gpus],
            "counts": report.counts(),
        },
        "toolchains": [{"hipcc": t.hipcc, "hip_version": t.hip_version, "full_version": t.full_version,
                        "clang": t.clang, "origin": t.origin, "default": t.default, "compiles": list(t.compiles),
                        "rejects": list(t.rejects)} for t in report.toolchains],
    }


def render_json(report: DoctorReport) -> str:
    return json.dumps(as_dict(report), indent=2) + "\n"


def render_text(report: DoctorReport, console: Console) -> None:
    s = report.summary
    console.print(Text.assemble(("hipmigrate doctor", "bold"), f": targets {', '.join(s.targets)}"))
    table = Table(title_justify="left")
    table.add_column("status", no_wrap=True)
    table.add_column("check", no_wrap=True)
    table.add_column("detail and fix", overflow="fold")
    for c in report.checks:
        cell = Text(c.detail)
        if c.fix:
            cell.append("\nfix: ", style="bold")
            cell.append(c.fix, style="bold")
        table.add_row(Text(c.status.value, style=STYLES[c.status]), Text(c.name), cell)
    console.print(table)
    counts = report.counts()
    console.print(", ".join(f"{n} {PLURALS[status] if n != 1 else status}" for status, n in counts.items()),
                  highlight=False)
    console.print(Text.assemble(("build: ", "bold"), (s.build_note, "green" if s.can_build else "bold red")))
    console.print(Text.assemble(("run:   ", "bold"), (s.run_note, "green" if s.can_run else "yellow")))
