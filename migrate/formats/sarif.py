"""sarif: SARIF 2.1.0 for code scanning (migrate.render.sarif)."""
from __future__ import annotations

from migrate.formats import Context, Format


def check(result, c: Context) -> str:
    from migrate.check import report

    return report.sarif(result, c.codes)


def migration(m, c: Context) -> str:
    from migrate.render import report_sarif

    return report_sarif.render_migration(m, c.codes)


def report(r, c: Context) -> str:
    from migrate.render import report_sarif as sarif_log

    return sarif_log.render(r, c.codes)


FORMAT = Format("sarif", "SARIF 2.1.0 for code scanning", {"migration": migration, "check": check, "report": report},
                rank=40)
