"""github: GitHub Actions annotations on the pull request's diff (migrate.render.github)."""
from __future__ import annotations

from migrate.formats import Context, Format


def check(result, c: Context) -> str:
    from migrate.render import github

    return github.render(result.findings, result.notes)


FORMAT = Format("github", "GitHub Actions annotations", {"check": check}, rank=50)
