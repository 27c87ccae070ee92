"""`hipmigrate rules`: the list of every code (migrate/codes.py), and one code's documentation with its examples."""
from __future__ import annotations

import textwrap

from rich.console import Console

from migrate.codes import code_table
from migrate.rule import Invalid


def listing(registry, packs, console: Console) -> None:
    """One line per code, `CODE  Name  fix  kind  summary`, at any terminal width: only the summary wraps, under
    itself where it has room (30 columns), else on the lines below, indented. The rules first, then the packs,
    then the codes hipmigrate reports itself (input problems, engines, compile checks)."""
    rows = []
    for rule in sorted(registry.rules, key=lambda r: r.code):
        summary = rule.doc().splitlines()[0] if rule.doc() else ""
        fix = rule.applicability.value if rule.fixable else "-"
        rows.append((rule.code, rule.__name__, fix, rule.kind.value, summary))
    for family, code in sorted(packs.families.items(), key=lambda kv: kv[1]):
        count = sum(1 for m in packs.names.values() if m.family == family)
        rows.append((code, f"pack:{family}", "safe", "mapping", f"{count} CUDA names renamed to HIP"))
    for entry in code_table(registry, packs).values():
        if entry.source == "engine":
            rows.append((entry.code, "-", "-", entry.kind.value, entry.title))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    width = max(console.width, 40)
    lead = sum(widths) + 2 * len(widths)
    console.print("  ".join(h.ljust(w) for h, w in zip(("code", "name", "fix", "kind"), widths)) + "  summary",
                  style="bold", markup=False, highlight=False, soft_wrap=True)
    for row in rows:
        head = "  ".join(cell.ljust(w) for cell, w in zip(row[:4], widths)) + "  "
        if width - lead >= 30:
            lines = textwrap.wrap(row[4], width - lead) or [""]
            text = head + lines[0] + "".join("\n" + " " * lead + line for line in lines[1:])
        else:
            indent = " " * 7
            text = head.rstrip() + "".join("\n" + line for line in textwrap.wrap(row[4], width, initial_indent=indent,
                                                                               subsequent_indent=indent))
        console.print(text, markup=False, highlight=False, soft_wrap=True)


def explain(registry, packs, code: str, console: Console) -> bool:
    rule = registry.by_code(code)
    if rule is None:
        family = next((f for f, c in packs.families.items() if c == code), None)
        if family is None:
            return _explain_code(code_table(registry, packs).get(code), console)
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


def _explain_code(entry, console: Console) -> bool:
    """A code no rule class or pack carries: its title and what it means."""
    if entry is None:
        return False
    console.print(f"[bold]{entry.code}[/] ({entry.kind.value}, {entry.severity.label})")
    text = entry.doc if entry.doc.startswith(entry.title) else "\n\n".join(filter(None, (entry.title, entry.doc)))
    console.print(text, markup=False, highlight=False)
    return True
