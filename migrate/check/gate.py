"""What counts as CUDA-only, and so makes `hipmigrate check` exit 1.

- a conversion the migration would make (a MAPPING or CPP finding with a fix: a CUDA API name or header left),
  and a CUDA identifier with no HIP counterpart (CPP006) or a CPP/MAPPING finding at or above the threshold;
- a portability hazard (HAZARD) at or above `--min-severity` (default warning);
- a CUDA-only Python, deployment or build setting (PYTHON, BUILD): at or above the threshold, or with a fix
  (a setting the migration would change is CUDA-only whatever its severity).

Input problems (INPUT: binary, not UTF-8, unparsable) and hipify-perl's messages (ENGINE) never block: they say
nothing about CUDA in the code.
"""
from __future__ import annotations

from migrate.model import Finding, RuleKind, Severity

UNSUPPORTED_CODES = frozenset({"CPP006"})
SEVERITIES = {s.label: s for s in Severity}


def parse_severity(label: str, name: str = "--min-severity") -> Severity:
    try:
        return SEVERITIES[label.lower()]
    except KeyError:
        from migrate.errors import UsageError

        raise UsageError(f"{name} {label!r}: choose one of {', '.join(SEVERITIES)}") from None


def blocks(finding: Finding, min_severity: Severity) -> bool:
    kind = finding.kind
    if kind in (RuleKind.MAPPING, RuleKind.CPP):
        return finding.fix is not None or finding.code in UNSUPPORTED_CODES or finding.severity >= min_severity
    if kind is RuleKind.HAZARD:
        return finding.severity >= min_severity
    if kind in (RuleKind.PYTHON, RuleKind.BUILD):
        return finding.fix is not None or finding.severity >= min_severity
    return False
