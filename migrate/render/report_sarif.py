"""The report's findings as SARIF 2.1.0 (migrate.render.sarif), for code scanning.

Every finding but the plain conversions (MAPxxx renames already applied: the report counts them by API family):
unsupported identifiers, hazards, warnings, notes, input problems, and the build's compiler diagnostics. Rule
metadata and help come from the code table that the command passes in and, for the build's BLD9xx codes, which no
rule class carries, from the causes of migrate.verify.diagnostics (migrate.render.sarif_rules).
"""
from __future__ import annotations

import json

from migrate.render import sarif
from migrate.render.sarif_rules import report_rules_for
from migrate.report.model import Report


def document(report: Report, codes: dict) -> dict:
    return of_findings(report.findings, {"destination": report.destination, "created": report.created}, codes)


def of_findings(stored, properties: dict, codes: dict) -> dict:
    """The SARIF log of report findings (Stored: each with the fingerprint it was recorded with); `codes` is the code
    table (migrate.codes)."""
    findings = [s.finding for s in stored]
    doc = sarif.document(findings, report_rules_for({f.code for f in findings}, codes), properties=properties)
    for result, s in zip(doc["runs"][0]["results"], stored):
        result["partialFingerprints"]["hipmigrate/v1"] = s.fingerprint
        region = result["locations"][0]["physicalLocation"]["region"]
        if s.finding.span.end <= s.finding.span.start:  # a compiler diagnostic: a line and column, no byte range
            region.pop("byteOffset"), region.pop("byteLength")
    return doc


def render(report: Report, codes: dict) -> str:
    return json.dumps(document(report, codes), indent=2) + "\n"


def render_migration(m, codes: dict) -> str:
    """`scan`, `run` or `diff --output-format sarif`: every finding of a migration but the plain conversions."""
    properties = {"source": m.source, "destination": m.destination}
    return json.dumps(of_findings(m.findings, properties, codes), indent=2) + "\n"
