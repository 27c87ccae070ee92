"""The report's findings as SARIF 2.1.0 (migrate.render.sarif), for code scanning.

Every finding but the plain conversions (MAPxxx renames already applied: the report counts them by API family):
unsupported identifiers, hazards, warnings, notes, input problems, and the build's compiler diagnostics. Rule
metadata and help come from the rule classes and packs (migrate.check.report.rules_for) and, for the build's
BLD9xx codes, which no rule class carries, from the causes of migrate.verify.diagnostics.
"""
from __future__ import annotations

from dataclasses import dataclass

from migrate.verify import diagnostics
from migrate.model import RuleKind, Severity
from migrate.kernels import findings as kernel_findings
from migrate.render import sarif
from migrate.report.model import Report

BUILD_HELP = ("hipcc reported it while compiling the migrated translation unit for an AMD target "
              "(`hipmigrate build`); the line is that of the original file. The message says for which target.")


@dataclass(frozen=True)
class BuildCause:
    """A compiler-diagnostic code, described for SARIF like a rule class."""

    code: str
    title: str
    severity: Severity = Severity.ERROR
    kind: RuleKind = RuleKind.BUILD

    def name(self) -> str:
        return "build:" + self.title.replace(" ", "-")

    def doc(self) -> str:
        return f"{self.title[0].upper()}{self.title[1:]}.\n\n{BUILD_HELP}"


def build_causes() -> list[BuildCause]:
    causes = [BuildCause(code, title) for _, code, title, _ in diagnostics.CAUSES]
    causes.append(BuildCause(diagnostics.NEWER[1], diagnostics.NEWER[2]))
    causes.append(BuildCause("BLD907", "compiler warning", Severity.WARNING))
    return causes


def rules_for(codes: set[str]) -> list:
    from migrate.check.report import rules_for as registry_rules

    causes = [c for c in build_causes() + list(kernel_findings.CODES) if c.code in codes]
    return causes + registry_rules(codes - {c.code for c in causes})


def document(report: Report) -> dict:
    return of_findings(report.findings, {"destination": report.destination, "created": report.created})


def of_findings(stored, properties: dict) -> dict:
    """The SARIF log of report findings (Stored: each with the fingerprint it was recorded with)."""
    findings = [s.finding for s in stored]
    doc = sarif.document(findings, rules_for({f.code for f in findings}), properties=properties)
    for result, s in zip(doc["runs"][0]["results"], stored):
        result["partialFingerprints"]["hipmigrate/v1"] = s.fingerprint
        region = result["locations"][0]["physicalLocation"]["region"]
        if s.finding.span.end <= s.finding.span.start:  # a compiler diagnostic: a line and column, no byte range
            region.pop("byteOffset"), region.pop("byteLength")
    return doc


def render(report: Report) -> str:
    import json

    return json.dumps(document(report), indent=2) + "\n"


def render_migration(m) -> str:
    """`scan`, `run` or `diff --output-format sarif`: every finding of a migration but the plain conversions."""
    import json

    return json.dumps(of_findings(m.findings, {"source": m.source, "destination": m.destination}), indent=2) + "\n"
