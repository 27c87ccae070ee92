"""SARIF 2.1.0: one run of hipmigrate, with the metadata and help of every rule a result refers to.

Generic over what produced the findings: `render(findings, rules)` takes the findings and the rules that may
describe them, each an object with `code`, `severity` and `doc()` (and optionally `name()`, `kind`), such as the
classes of `migrate.api.registry()`. A finding whose code has no rule gets a bare descriptor. Results carry the
finding's fingerprint as a partial fingerprint (GitHub code scanning tracks alerts with it across commits) and
its fix, if any, as SARIF byte-range replacements.
"""
from __future__ import annotations

import json
from typing import Iterable

from migrate import __version__
from migrate.model import Finding, Severity

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
INFO_URI = "https://github.com/hipmigrate/hipmigrate"
LEVELS = {Severity.INFO: "note", Severity.WARNING: "warning", Severity.ERROR: "error"}


def _paragraphs(doc: str) -> list[str]:
    return [" ".join(p.split()) for p in doc.strip().split("\n\n") if p.strip()]


def _short(text: str, limit: int = 200) -> str:
    first = text.split(". ")[0].rstrip(".")
    return first if len(first) <= limit else first[:limit - 1].rstrip() + "…"


def descriptor(rule) -> dict:
    doc = rule.doc() if callable(getattr(rule, "doc", None)) else str(getattr(rule, "doc", "") or "")
    paragraphs = _paragraphs(doc) or [rule.code]
    name = rule.name() if callable(getattr(rule, "name", None)) else getattr(rule, "name", rule.code)
    out = {
        "id": rule.code,
        "name": name,
        "shortDescription": {"text": _short(paragraphs[0])},
        "fullDescription": {"text": paragraphs[0]},
        "help": {"text": doc.strip() or rule.code, "markdown": "\n\n".join(paragraphs)},
        "defaultConfiguration": {"level": LEVELS[Severity(rule.severity)]},
        "properties": {"tags": [getattr(getattr(rule, "kind", None), "value", "hipmigrate")]},
    }
    return out


def _bare(code: str, severity: Severity) -> dict:
    return {"id": code, "name": code, "shortDescription": {"text": code},
            "defaultConfiguration": {"level": LEVELS[severity]}}


def result(f: Finding, index: int, level: str | None = None) -> dict:
    out = {
        "ruleId": f.code,
        "ruleIndex": index,
        "level": level or LEVELS[f.severity],
        "message": {"text": f.message},
        "locations": [{"physicalLocation": {
            "artifactLocation": {"uri": f.span.path, "uriBaseId": "%SRCROOT%"},
            "region": {"startLine": f.span.line, "startColumn": f.span.column,
                       "byteOffset": f.span.start, "byteLength": max(0, f.span.end - f.span.start)},
        }}],
        "partialFingerprints": {"hipmigrate/v1": f.fingerprint},
    }
    if f.fix is not None and f.fix.edits:
        out["fixes"] = [{
            "description": {"text": f.fix.title or f"Apply the {f.code} fix"},
            "artifactChanges": [{
                "artifactLocation": {"uri": f.span.path, "uriBaseId": "%SRCROOT%"},
                "replacements": [{"deletedRegion": {"byteOffset": e.start, "byteLength": e.end - e.start},
                                  "insertedContent": {"text": e.text}} for e in f.fix.edits],
            }],
            "properties": {"applicability": f.fix.applicability.value},
        }]
    return out


def document(findings: Iterable[Finding], rules: Iterable = (), *, levels: dict[int, str] | None = None,
             tool_version: str = __version__, properties: dict | None = None) -> dict:
    """The SARIF log as a dict. `levels` may override the level of a result by its position in `findings`."""
    findings = list(findings)
    by_code = {r.code: r for r in rules}
    descriptors: list[dict] = []
    index: dict[str, int] = {}
    for f in findings:
        if f.code not in index:
            index[f.code] = len(descriptors)
            rule = by_code.get(f.code)
            descriptors.append(descriptor(rule) if rule is not None else _bare(f.code, f.severity))
    run = {
        "tool": {"driver": {"name": "hipmigrate", "version": tool_version, "semanticVersion": tool_version,
                            "informationUri": INFO_URI, "rules": descriptors}},
        "originalUriBaseIds": {"%SRCROOT%": {"uri": "./"}},
        "results": [result(f, index[f.code], (levels or {}).get(i)) for i, f in enumerate(findings)],
        "columnKind": "unicodeCodePoints",
    }
    if properties:
        run["properties"] = properties
    return {"$schema": SCHEMA, "version": "2.1.0", "runs": [run]}


def render(findings: Iterable[Finding], rules: Iterable = (), **kw) -> str:
    return json.dumps(document(findings, rules, **kw), indent=2) + "\n"
