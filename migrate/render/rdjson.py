"""reviewdog's diagnostic format (rdjson): `reviewdog -f=rdjson` posts the diagnostics on a pull request and
turns their suggestions into suggested changes.

Positions are 1-based lines and 1-based columns counted in UTF-8 bytes, as reviewdog reads them; a range's end
is exclusive. A finding's fix becomes suggestions (one per edit), which needs the file's text to turn byte
offsets into positions: `texts` maps a finding's path to the bytes its offsets refer to.
"""
from __future__ import annotations

import bisect
import json
import re
from dataclasses import dataclass
from typing import Callable, Iterable, Mapping

from migrate.model import Finding, Severity

SOURCE = {"name": "hipmigrate", "url": "https://github.com/hipmigrate/hipmigrate"}
SEVERITIES = {Severity.INFO: "INFO", Severity.WARNING: "WARNING", Severity.ERROR: "ERROR"}


class Positions:
    """Byte offset -> {line, column} for one file."""

    def __init__(self, data: bytes):
        self.starts = [0] + [m.end() for m in re.finditer(b"\n", data)]

    def at(self, offset: int) -> dict:
        line = bisect.bisect_right(self.starts, offset)
        return {"line": line, "column": offset - self.starts[line - 1] + 1}


@dataclass(frozen=True)
class Suggestion:
    """Replace [start, end) (positions as dicts) by text."""

    start: dict
    end: dict
    text: str

    def as_dict(self) -> dict:
        return {"range": {"start": self.start, "end": self.end}, "text": self.text}


def diagnostic(f: Finding, positions: Positions | None, severity: str | None = None,
               suggestions: Iterable[Suggestion] | None = None) -> dict:
    start = {"line": f.span.line, "column": f.span.column}
    out = {"message": f.message, "location": {"path": f.span.path, "range": {"start": start}},
           "severity": severity or SEVERITIES[f.severity], "code": {"value": f.code},
           "original_output": f"{f.span.path}:{f.span.line}:{f.span.column}: {f.code} {f.message}"}
    if positions is not None and f.span.end > f.span.start:
        out["location"]["range"]["end"] = positions.at(f.span.end)
    if suggestions is None and f.fix is not None and positions is not None:
        suggestions = [Suggestion(positions.at(e.start), positions.at(e.end), e.text) for e in f.fix.edits]
    if suggestions:
        out["suggestions"] = [s.as_dict() for s in suggestions]
    return out


def document(diagnostics: list[dict]) -> dict:
    return {"source": SOURCE, "diagnostics": diagnostics}


def render(findings: Iterable[Finding], texts: Mapping[str, bytes] | Callable[[str], bytes | None] = {},
           severity: Callable[[Finding], str | None] = lambda f: None) -> str:
    lookup = texts if callable(texts) else texts.get
    cache: dict[str, Positions | None] = {}
    out = []
    for f in findings:
        if f.span.path not in cache:
            data = lookup(f.span.path)
            cache[f.span.path] = Positions(data) if data is not None else None
        out.append(diagnostic(f, cache[f.span.path], severity(f)))
    return json.dumps(document(out), indent=2) + "\n"
