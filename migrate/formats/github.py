"""github: GitHub Actions annotations on the pull request's diff (migrate.render.github)."""
from __future__ import annotations

from migrate.formats import Context, Format


def check(result, c: Context) -> str:
    from migrate.render import github

    return github.render(result.findings, result.notes)


def migration(m, c: Context) -> str:
    from migrate.render import github

    return github.by_severity(s.finding for s in m.findings)


def report(r, c: Context) -> str:
    from migrate.render import github

    return github.by_severity(s.finding for s in r.findings)


FORMAT = Format("github", "GitHub Actions annotations", {"migration": migration, "check": check, "report": report},
                rank=50)
