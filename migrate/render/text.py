"""Terminal output: the migration summary as rich tables."""
from __future__ import annotations

from rich.console import Console
from rich.table import Table

from migrate.model import MigrationResult
from migrate.stages.report import summarize


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


def render(result: MigrationResult, console: Console, command: str, limit: int = 50) -> None:
    s = summarize(result)
    verb = {"run": "migrated", "scan": "would change", "diff": "would change"}.get(command, "changed")
    console.print(f"[bold]hipmigrate {command}[/]: {s.files_total} files, {s.files_changed} {verb}, "
                  f"{s.files_skipped} skipped; engine {s.engine} {s.engine_version}; target HIP {s.hip_version}")
    if s.conversions:
        table = Table(title="identifiers converted by API family", title_justify="left")
        table.add_column("family")
        table.add_column("conversions", justify="right")
        for family, count in s.conversions.items():
            table.add_row(family, str(count))
        table.add_row("[bold]total[/]", f"[bold]{sum(s.conversions.values())}[/]")
        console.print(table)
    listing(console, s.unsupported, "unsupported identifiers[/] (left unchanged)", limit, with_code=False)
    listing(console, s.warnings, "warnings[/]", limit, with_code=True)
    if result.destination:
        console.print(f"output: {result.destination}")
