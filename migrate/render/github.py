"""GitHub Actions workflow commands: one annotation per finding, shown on the pull request's diff.

    ::error file=src/k.cu,line=12,col=3,title=MAP001::cudaMalloc is hipMalloc in HIP

For `check`, findings that fail the gate are `error`s and the rest (`notes`) `warning`s; for a migration or a report,
each finding's severity gives its level (info is a `notice`). Values are escaped as the
runner expects: `%`, CR and LF everywhere, and `:` and `,` inside properties.
"""
from __future__ import annotations

from typing import Iterable

from migrate.model import Finding


def _data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(f: Finding, level: str = "error") -> str:
    return (f"::{level} file={_property(f.span.path)},line={f.span.line},col={f.span.column},"
            f"title={_property(f.code)}::{_data(f.message)}")


def render(findings: Iterable[Finding], notes: Iterable[Finding] = ()) -> str:
    lines = [annotation(f, "error") for f in findings] + [annotation(f, "warning") for f in notes]
    return "".join(line + "\n" for line in lines)


LEVELS = {"error": "error", "warning": "warning", "info": "notice"}


def by_severity(findings: Iterable[Finding]) -> str:
    """One annotation per finding at the level of its severity (error, warning, notice for info)."""
    return "".join(annotation(f, LEVELS[f.severity.label]) + "\n" for f in findings)
