"""Terminal output of run, scan and diff: the report model's Migration as rich tables."""
from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from migrate import effort as effort_model
from migrate.codes import rule_name
from migrate.model import Severity
from migrate.render.blockers import blockers
from migrate.report.model import Migration
from migrate.stages.report import HAZARD, NOTE, UNSUPPORTED, WARNING, section
from migrate.pathnames import shown


def where(f) -> str:
    return f"{shown(f.span.path)}:{f.span.line}:{f.span.column}"


def listing(console: Console, findings, heading: str, limit: int, with_code: bool) -> None:
    if not findings:
        return
    console.print(f"[bold yellow]{len(findings)} {heading}:")
    for f in findings[:limit]:
        code = f"{f.code} " if with_code else ""
        console.print(f"  {where(f)}: {code}{f.message}", markup=False, highlight=False)
    if len(findings) > limit:
        console.print(f"  ... and {len(findings) - limit} more (use --output-format json for all)")


def asm_listing(console: Console, m: Migration, limit: int) -> None:
    """Every inline-PTX site: file:line:column, what it uses, and the HIP counterparts known."""
    sites = m.inline_asm
    if not sites:
        return
    console.print(f"[bold yellow]{len(sites)} inline assembly sites[/] (PTX does not build for AMD):")
    for s in sites[:limit]:
        used = ", ".join(s.instructions) or "no instruction this tool recognises"
        console.print(f"  {shown(s.path)}:{s.line}:{s.column}: {used}", markup=False, highlight=False)
        for item, hip in s.suggestions:
            console.print(f"      {item} → {hip}" if hip else f"      {item}: no HIP counterpart", markup=False,
                          highlight=False)
    if len(sites) > limit:
        console.print(f"  ... and {len(sites) - limit} more (use --output-format json for all)")


def fixes_table(console: Console, fixes: dict[str, int], command: str, codes: dict) -> None:
    """Fixes of the rules other than plain renames (Python, deployment, build, C++ and hazard rules), by code."""
    if not fixes:
        return
    title = "fixes applied by rule" if command == "run" else "fixes by rule"
    table = Table(title=title, title_justify="left")
    for name, justify in (("code", "left"), ("rule", "left"), ("fixes", "right")):
        table.add_column(name, justify=justify)
    for code, count in fixes.items():
        table.add_row(code, rule_name(codes, code), str(count))
    table.add_row("[bold]total[/]", "", f"[bold]{sum(fixes.values())}[/]")
    console.print(table)


def effort_table(console: Console, e: effort_model.Effort, limit: int) -> None:
    """Per file with work to do, the repository total and its effort class."""
    weights = ", ".join(f"{s.label} {w}" for s, w in effort_model.WEIGHTS.items() if w)
    table = Table(title=f"migration effort (review weight: {weights})", title_justify="left")
    for name in ("file", "lines", "changed", "fixed", "review", "weight", "effort"):
        # a file's path folds rather than being cut: two files must never show as the same cut name
        table.add_column(name, justify="left" if name in ("file", "effort") else "right",
                         overflow="fold" if name == "file" else "ellipsis")
    busy = [f for f in e.files if f.lines_changed or f.hazards_fixed or f.hazards_to_review]
    for f in busy[:limit]:
        table.add_row(escape(shown(f.path)), str(f.lines), str(f.lines_changed), str(f.hazards_fixed), str(f.hazards_to_review),
                      str(f.review_weight), f.effort)
    if len(busy) > limit:
        table.add_row(f"... {len(busy) - limit} more files", "", "", "", "", "", "")
    t = e.total
    table.add_row("[bold]total[/]", str(t.lines), str(t.lines_changed), str(t.hazards_fixed),
                  str(t.hazards_to_review), str(t.review_weight), f"[bold]{t.effort}[/]")
    console.print(table)
    console.print(f"[bold]effort: {e.effort}[/] ({t.lines_changed} of {t.lines} lines changed automatically, "
                  f"{t.hazards_fixed} hazards fixed, {t.hazards_to_review} to review)")


def blockers_block(console: Console, m: Migration, codes: dict) -> None:
    """What stops the build, by cause: count, first place, next step."""
    groups = blockers((s.finding for s in m.every), codes)
    if not groups:
        console.print(f"[bold green]no blockers[/]: nothing found that stops a build for HIP {m.hip_version} "
                      "(`hipmigrate build` compiles it to be sure)")
        return
    total = sum(b.count for b in groups)
    console.print(f"[bold red]blockers[/]: {total} finding{'s' if total != 1 else ''} in {len(groups)} "
                  f"group{'s' if len(groups) != 1 else ''} stop a build for HIP {m.hip_version}")
    for b in groups:
        console.print(f"  {b.count:>4} x {b.code} {b.label}, first at {where(b.first)}", markup=False,
                      highlight=False)
        console.print(f"         next: {b.next_step}", markup=False, highlight=False)


def statistics(console: Console, m: Migration, codes: dict) -> None:
    """Counts per code, largest first, as `ruff --statistics` prints them."""
    for code, n in sorted(m.by_code.items(), key=lambda kv: (-kv[1], kv[0])):
        entry = codes.get(code)  # a code no rule class carries (INP, ENG) is named by its title
        name = rule_name(codes, code) or ("pack conversions" if code.startswith("MAP") else
                                          entry.title if entry is not None else "")
        console.print(f"{n:>6}  {code}  {name}", markup=False, highlight=False)


def effort_line(console: Console, e: effort_model.Effort) -> None:
    """The repository's effort class and its three largest files, for `run`."""
    busy = sorted((f for f in e.files if f.lines_changed or f.hazards_to_review),
                  key=lambda f: (-f.review_weight, -f.lines_changed, f.path))[:3]
    largest = "; ".join(f"{shown(f.path)} ({f.lines_changed} lines changed, {f.hazards_to_review} to review)"
                        for f in busy)
    console.print(f"[bold]effort: {e.effort}[/] ({e.total.lines_changed} of {e.total.lines} lines changed "
                  f"automatically, {e.total.hazards_to_review} to review)" + (f"; largest: {escape(largest)}"
                                                                                  if largest else ""))


def in_order(m: Migration) -> dict[str, list]:
    """The findings of each listed section in the order the engine reported them; hazards at warning or above are
    listed with the warnings."""
    out: dict[str, list] = {UNSUPPORTED: [], WARNING: [], NOTE: []}
    for s in m.every:
        where = section(s.finding)
        if where == HAZARD:
            where = WARNING if s.finding.severity >= Severity.WARNING else None
        if where in out:
            out[where].append(s.finding)
    return out


def draw(m: Migration, console: Console, command: str, codes: dict, limit: int = 50,
         show_statistics: bool = False) -> None:
    """`codes`: the code table (migrate.codes), which names the rules."""
    verb = {"run": "migrated", "scan": "would change", "diff": "would change"}.get(command, "changed")
    console.print(f"[bold]hipmigrate {command}[/]: {len(m.files)} files, {m.count('migrated')} {verb}, "
                  f"{m.count('skipped')} skipped; engine {m.engine} {m.engine_version}; target HIP {m.hip_version}")
    if not m.files:
        console.print(f"no files found under {m.source}: is every file there ignored by a .gitignore or an "
                      "--exclude pattern?", markup=False, highlight=False, style="yellow")
    blockers_block(console, m, codes)
    if show_statistics:
        statistics(console, m, codes)
    else:
        if m.conversions:
            table = Table(title="identifiers converted by API family", title_justify="left")
            table.add_column("family")
            table.add_column("conversions", justify="right")
            for family, count in m.conversions.items():
                table.add_row(family, str(count))
            table.add_row("[bold]total[/]", f"[bold]{sum(m.conversions.values())}[/]")
            console.print(table)
        fixes_table(console, m.fixes_by_rule, command, codes)
        listed = in_order(m)
        warnings = listed[WARNING]
        listing(console, listed[UNSUPPORTED], "errors: unsupported identifiers[/] (left unchanged)", limit,
                with_code=False)
        listing(console, [f for f in warnings if f.severity is Severity.ERROR], "errors[/]", limit, with_code=True)
        listing(console, [f for f in warnings if f.severity is not Severity.ERROR], "warnings[/]", limit,
                with_code=True)
        listing(console, listed[NOTE], "info[/] (kept as they are)", limit, with_code=True)
    if m.suppressed:
        console.print(f"{m.suppressed} finding{'s' if m.suppressed != 1 else ''} suppressed by `hipmigrate: ignore` "
                      "comments, not fixed (--no-suppressions shows and fixes them)", markup=False, highlight=False)
    if command == "scan":
        asm_listing(console, m, limit)
        effort_table(console, m.estimate, limit)
    elif command == "run":
        effort_line(console, m.estimate)
    if m.destination:
        report = (f"; the full report: hipmigrate report {m.destination} --output-format html -o report.html"
                  if command == "run" and m.source != m.destination else "")
        console.print(f"output: {m.destination}{report}", markup=False, highlight=False)
