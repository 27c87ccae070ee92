"""The rules a SARIF log describes (migrate.render.sarif takes objects with `code`, `severity`, `doc`, `name` and
`kind`) for the codes of its results, read from the code table (migrate.codes) that the command passes in: the rule
classes and CHK001 as the table has them, and each mapping pack (MAPxxx) with its size. The report's log also
describes the build's compiler-diagnostic causes (BLD9xx, which no rule class carries, from
migrate.verify.diagnostics) and the kernel diff's PRF codes.
"""
from __future__ import annotations

from dataclasses import dataclass

from migrate.kernels import findings as kernel_findings
from migrate.model import RuleKind, Severity
from migrate.verify import diagnostics

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


@dataclass(frozen=True)
class PackRule:
    """A mapping pack, described for SARIF like a rule class."""

    code: str
    family: str
    title: str
    rows: int
    base_doc: str
    severity: Severity = Severity.INFO
    kind: RuleKind = RuleKind.MAPPING

    def name(self) -> str:
        return f"pack:{self.family}"

    def doc(self) -> str:
        return (f"A {self.title or self.family} name that the '{self.family}' mapping pack renames to HIP "
                f"({self.rows} names).\n\n{self.base_doc}")


def rules_for(wanted: set[str], codes: dict) -> list:
    """The descriptors of the codes wanted that the table has as rule classes, CHK001 or mapping packs."""
    base = codes.get("MAP000")
    out: list = []
    for code in sorted(wanted):
        entry = codes.get(code)
        if entry is not None and (entry.source == "rule" or code == "CHK001"):
            out.append(entry)
        elif entry is not None and entry.source == "pack":
            out.append(PackRule(code, entry.family, "", entry.rows, base.doc if base is not None else ""))
    return out


def report_rules_for(wanted: set[str], codes: dict) -> list:
    """rules_for, and the build's causes and the kernel diff's codes, which come first."""
    causes = [c for c in build_causes() + list(kernel_findings.CODES) if c.code in wanted]
    return causes + rules_for(wanted - {c.code for c in causes}, codes)
