"""Stage 4, report: which part of the report each finding belongs to. The report model itself is assembled once
from the stages' results by migrate.report.assemble; this module decides only the sections, for every reader."""
from __future__ import annotations

from migrate.model import Finding, RuleKind, Severity

UNSUPPORTED_CODES = {"CPP006", "ENG001"}
CONVERSION, UNSUPPORTED, HAZARD, WARNING, NOTE = "conversion", "unsupported", "hazard", "warning", "note"


def is_conversion(f: Finding) -> bool:
    return f.kind is RuleKind.MAPPING and f.fix is not None and f.code.startswith("MAP")


def section(f: Finding) -> str | None:
    """The section a finding is shown in: a plain conversion (counted by API family), an unsupported identifier, a
    portability hazard, a warning (anything else at warning or above, and input problems), a note (information with
    nothing to fix from the Python and build rules); None for what no section lists (C++ information with a fix)."""
    if is_conversion(f):
        return CONVERSION
    if f.code in UNSUPPORTED_CODES:
        return UNSUPPORTED
    if f.kind is RuleKind.HAZARD:
        return HAZARD
    if f.severity >= Severity.WARNING or f.kind is RuleKind.INPUT:
        return WARNING
    if f.fix is None and f.kind in (RuleKind.PYTHON, RuleKind.BUILD):
        return NOTE
    return None
