"""`hipmigrate rules`: the rule list, and one rule's documentation with its examples."""
from __future__ import annotations

from rich.console import Console
from rich.table import Table

from migrate.rule import Invalid


def listing(registry, packs, console: Console) -> None:
    table = Table(title="rules", title_justify="left")
    for column in ("code", "name"):
        table.add_column(column, no_wrap=True)
    for column in ("kind", "severity", "fix", "summary"):
        table.add_column(column)
    for rule in sorted(registry.rules, key=lambda r: r.code):
        summary = rule.doc().splitlines()[0] if rule.doc() else ""
        fix = rule.applicability.value if rule.fixable else "-"
        table.add_row(rule.code, rule.__name__, rule.kind.value, rule.severity.label, fix, summary)
    for family, code in sorted(packs.families.items(), key=lambda kv: kv[1]):
        rows = sum(1 for m in packs.names.values() if m.family == family)
        table.add_row(code, f"pack:{family}", "mapping", "info", "safe", f"{rows} CUDA names renamed to HIP")
    console.print(table)


def explain(registry, packs, code: str, console: Console) -> bool:
    rule = registry.by_code(code)
    if rule is None:
        family = next((f for f, c in packs.families.items() if c == code), None)
        if family is None:
            return False
        rows = sorted((m for m in packs.names.values() if m.family == family), key=lambda m: m.cuda)
        console.print(f"[bold]{code}[/] mapping pack '{family}': {len(rows)} names, e.g.")
        for m in rows[:20]:
            console.print(f"  {m.cuda} -> {m.hip} ({m.kind}, HIP {m.since})", markup=False)
        return True
    console.print(f"[bold]{rule.code} {rule.__name__}[/] ({rule.kind.value}, {rule.severity.label})")
    console.print(rule.doc(), markup=False, highlight=False)
    for example in rule.examples:
        label = "flagged" if isinstance(example, Invalid) else "not flagged"
        console.print(f"\n[bold]{label}:[/]")
        console.print(example.code.rstrip("\n"), markup=False, highlight=False)
        if isinstance(example, Invalid) and example.fixed is not None:
            console.print("[bold]becomes:[/]")
            console.print(example.fixed.rstrip("\n"), markup=False, highlight=False)
    return True
