"""Terminal output: the migration summary as rich tables."""
from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from migrate import effort as effort_model
from migrate.cpp import ptx
from migrate.model import MigrationResult
from migrate.stages.report import fixes_by_rule, summarize


def where(f) -> str:
    return f"{f.span.path}:{f.span.line}:{f.span.column}"


def listing(console: Console, findings, heading: str, limit: int, with_code: bool) -> None:
    if not findings:
        return
    console.print(f"[bold yellow]{len(findings)} {heading}:")
    for f in findings[:limit]:
        code = f"{f.code} " if with_code else ""
        console.print(f"  {where(f)}: {code}{f.message}", markup=False, highlight=False)
    if len(findings) > limit:
        console.print(f"  ... and {len(findings) - limit} more (use --output-format json for all)")


def asm_listing(console: Console, result: MigrationResult, limit: int) -> None:
    """Every inline-PTX site: file:line:column, what it uses, and the HIP counterparts known."""
    sites = ptx.listing(result.findings)
    if not sites:
        return
    console.print(f"[bold yellow]{len(sites)} inline assembly sites[/] (PTX does not build for AMD):")
    for s in sites[:limit]:
        used = ", ".join(s.instructions) or "no instruction this tool recognises"
        console.print(f"  {s.path}:{s.line}:{s.column}: {used}", markup=False, highlight=False)
        for item, hip in s.suggestions:
            console.print(f"      {item} → {hip}" if hip else f"      {item}: no HIP counterpart", markup=False,
                          highlight=False)
    if len(sites) > limit:
        console.print(f"  ... and {len(sites) - limit} more (use --output-format json for all)")


def fixes_table(console: Console, fixes: dict[str, int], command: str) -> None:
    """Fixes of the rules other than plain renames (Python, deployment, build, C++ and hazard rules), by code."""
    if not fixes:
        return
    from migrate.registry import default_registry

    registry = default_registry()
    title = "fixes applied by rule" if command == "run" else "fixes by rule"
    table = Table(title=title, title_justify="left")
    for name, justify in (("code", "left"), ("rule", "left"), ("fixes", "right")):
        table.add_column(name, justify=justify)
    for code, count in fixes.items():
        rule = registry.by_code(code)
        table.add_row(code, rule.name() if rule else "", str(count))
    table.add_row("[bold]total[/]", "", f"[bold]{sum(fixes.values())}[/]")
    console.print(table)


def effort_table(console: Console, e: effort_model.Effort, limit: int) -> None:
    """Per file with work to do, the repository total and its effort class."""
    weights = ", ".join(f"{s.label} {w}" for s, w in effort_model.WEIGHTS.items() if w)
    table = Table(title=f"migration effort (review weight: {weights})", title_justify="left")
    for name in ("file", "lines", "changed", "fixed", "review", "weight", "effort"):
        table.add_column(name, justify="left" if name in ("file", "effort") else "right")
    busy = [f for f in e.files if f.lines_changed or f.hazards_fixed or f.hazards_to_review]
    for f in busy[:limit]:
        table.add_row(escape(f.path), str(f.lines), str(f.lines_changed), str(f.hazards_fixed), str(f.hazards_to_review),
                      str(f.review_weight), f.effort)
    if len(busy) > limit:
        table.add_row(f"... {len(busy) - limit} more files", "", "", "", "", "", "")
    t = e.total
    table.add_row("[bold]total[/]", str(t.lines), str(t.lines_changed), str(t.hazards_fixed),
                  str(t.hazards_to_review), str(t.review_weight), f"[bold]{t.effort}[/]")
    console.print(table)
    console.print(f"[bold]effort: {e.effort}[/] ({t.lines_changed} of {t.lines} lines changed automatically, "
                  f"{t.hazards_fixed} hazards fixed, {t.hazards_to_review} to review)")


def render(result: MigrationResult, console: Console, command: str, limit: int = 50,
           unsafe_fixes: bool = False) -> None:
    s = summarize(result)
    verb = {"run": "migrated", "scan": "would change", "diff": "would change"}.get(command, "changed")
    console.print(f"[bold]hipmigrate {command}[/]: {s.files_total} files, {s.files_changed} {verb}, "
                  f"{s.files_skipped} skipped; engine {s.engine} {s.engine_version}; target HIP {s.hip_version}")
    if s.files_total == 0:
        console.print(f"no files found under {result.source}: is every file there ignored by a .gitignore or an "
                      "--exclude pattern?", markup=False, highlight=False, style="yellow")
    if s.conversions:
        table = Table(title="identifiers converted by API family", title_justify="left")
        table.add_column("family")
        table.add_column("conversions", justify="right")
        for family, count in s.conversions.items():
            table.add_row(family, str(count))
        table.add_row("[bold]total[/]", f"[bold]{sum(s.conversions.values())}[/]")
        console.print(table)
    fixes_table(console, fixes_by_rule(result, unsafe_fixes), command)
    listing(console, s.unsupported, "unsupported identifiers[/] (left unchanged)", limit, with_code=False)
    listing(console, s.warnings, "warnings[/]", limit, with_code=True)
    listing(console, s.notes, "notes[/] (kept as they are)", limit, with_code=True)
    if command == "scan":
        asm_listing(console, result, limit)
        effort_table(console, effort_model.estimate(result, unsafe_fixes), limit)
    if result.destination:
        console.print(f"output: {result.destination}", markup=False, highlight=False)
