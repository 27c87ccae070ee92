"""Output of `hipmigrate build`: a rich table per unit and target, or JSON (docs/json.md, "build")."""
from __future__ import annotations

import json
from collections import Counter

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from migrate.model import BuildResult
from migrate.render.json import finding_dict
from migrate.verify.diagnostics import TARGET, error_key, first_error
from migrate.pathnames import shown

SCHEMA_VERSION = 1


def as_dict(result: BuildResult) -> dict:
    return {
        "schema": SCHEMA_VERSION, "command": "build", "root": result.root, "source": result.source,
        "targets": list(result.targets), "hipcc": result.hipcc, "hipcc_origin": result.hipcc_origin,
        "hip_version": result.hip_version, "units": [{"path": u.path, "target": u.target, "status": u.status, "seconds": u.seconds,
                   "cached": u.cached, "command": list(u.command), "findings": [finding_dict(f) for f in u.findings]}
                  for u in result.units],
        "compile_cache": None if result.compile_cache is None else {
            "folder": result.compile_cache, "hits": sum(u.cached for u in result.units),
            "compiled": sum(not u.cached for u in result.units)},
        "skipped": list(result.skipped),
        "project": None if result.project is None else {
            "command": result.project.command, "status": result.project.status, "seconds": result.project.seconds,
            "output_tail": result.project.output_tail,
            "findings": [finding_dict(f) for f in result.project.findings]},
        "failed": result.failed,
    }


def render_json(result: BuildResult) -> str:
    return json.dumps(as_dict(result), indent=2) + "\n"


def error_groups(result: BuildResult) -> dict[tuple, list]:
    """One entry per distinct error (error_key and column): the same error of a shared header, met by many units
    and targets, is one entry with every (unit, finding) that gave it; largest first."""
    groups: dict[tuple, list] = {}
    sources = [(u.path, u.findings) for u in result.units]
    if result.project is not None:
        sources.append(("project build", result.project.findings))
    for unit, unit_findings in sources:
        for f in unit_findings:
            if f.severity.label == "error":
                groups.setdefault((*error_key(f), f.span.column), []).append((unit, f))
    return dict(sorted(groups.items(), key=lambda kv: -len(kv[1])))


def render_text(result: BuildResult, console: Console) -> None:
    ok = sum(1 for u in result.units if u.status == "ok")
    console.print(f"[bold]hipmigrate build[/]: {len(result.units)} compiles ({ok} ok) of "
                  f"{len({u.path for u in result.units})} units for {', '.join(result.targets)} with hipcc "
                  f"{result.hip_version} ({escape(result.hipcc)}, {escape(result.hipcc_origin)}); {len(result.skipped)} plain C/C++ units left to the "
                  "project's build", highlight=False)
    groups = error_groups(result)
    if groups:
        failed = len(result.units) - ok
        console.print(f"[bold red]blockers[/]: {failed} of {len(result.units)} compiles failed"
                      + (", and the project build" if result.project is not None and result.project.status != "ok"
                         else "") + f"; {len(groups)} distinct error{'s' if len(groups) != 1 else ''}, the most met first:")
        for (code, path, line, text, _), same in list(groups.items())[:5]:
            units = len({unit for unit, _ in same})
            console.print(f"  {len(same):>4} x {code} {shown(path)}:{line}: {text} ({units} unit{'s' if units != 1 else ''})",
                          markup=False, highlight=False)
    if result.units:
        table = Table(title_justify="left")
        for column in ("unit", "target", "status", "seconds", "errors", "first error"):
            table.add_column(column, justify="right" if column in ("seconds", "errors") else "left",
                             overflow="fold" if column == "first error" else "ellipsis")
        for u in result.units:
            errors = sum(1 for f in u.findings if f.severity.label == "error")
            style = "green" if u.status == "ok" else "red"
            seconds = "cached" if u.cached else f"{u.seconds:.2f}"  # a hit's own seconds are in the JSON
            table.add_row(shown(u.path), u.target, f"[{style}]{u.status}[/]", seconds, str(errors),
                          Text(first_error(u.findings) if u.status != "ok" else ""))
        console.print(table)
    findings = [f for f in result.findings if f.severity.label == "error"]
    if findings:
        by_cause = Counter(f.code for f in findings)
        console.print("errors by cause: " + ", ".join(f"{code} {n}" for code, n in sorted(by_cause.items())))
        for (code, path, line, _, column), same in groups.items():
            units = len({unit for unit, _ in same})
            times = f" (x{len(same)}, {units} unit{'s' if units != 1 else ''})" if len(same) > 1 else ""
            message = TARGET.sub(": ", same[0][1].message, count=1)
            console.print(f"  {shown(path)}:{line}:{column}: {code} {message}{times}", markup=False, highlight=False)
    if result.project is not None:
        p = result.project
        console.print(f"project build `{p.command}`: {p.status} in {p.seconds:.1f} s", markup=False)
        if p.status != "ok":
            console.print(p.output_tail[-2000:], markup=False, highlight=False)
    if result.compile_cache is not None:
        hits = sum(u.cached for u in result.units)
        console.print(f"compile cache {result.compile_cache}: {hits} of {len(result.units)} compiles read from it, "
                      f"{len(result.units) - hits} compiled", markup=False, highlight=False)
