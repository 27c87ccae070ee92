"""Whether hipmigrate's own report predicted a unit's failure: a blocker in the unit or a project header it includes.

The report is `hipmigrate run --output-format json` (docs/json.md): findings with `path` (relative to the source
root), `line`, `code` and `severity`. A blocker is what the text report lists under "blockers"
(migrate/render/blockers.py): a finding of severity `error`, which every format grades the same way (identifiers
left unchanged for want of a HIP counterpart are errors, but warnings in a helper CPP049 compiles for NVIDIA only;
an error whose fix was applied is a warning).
"""
from __future__ import annotations

import json
import os
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

NEAR = 10  # lines either side of the failing line that count as "at the failing line"


@dataclass(frozen=True)
class Blocker:
    path: str
    line: int
    code: str
    severity: str
    message: str


def blockers_of(report: dict) -> dict[str, list[Blocker]]:
    """The report's blockers by path."""
    out: dict[str, list[Blocker]] = defaultdict(list)
    for f in report.get("findings", []):
        if f.get("severity") == "error":
            out[f["path"]].append(Blocker(f["path"], f.get("line", 0), f["code"], f["severity"], f["message"]))
    return dict(out)


def load_report(path: Path) -> dict:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


@dataclass(frozen=True)
class Prediction:
    blocker: bool  # a blocker (the text report's sense) in the unit or a header it includes
    error: bool  # a finding of severity error (the JSON's sense) there
    near: bool  # a blocker in the failing file within NEAR lines of the failing line
    in_file: bool  # a blocker anywhere in the failing file
    codes: tuple[str, ...]  # the blockers' codes, sorted, each once


def predict(blockers: dict[str, list[Blocker]], files: list[str], error_file: str | None = None,
            error_line: int | None = None) -> Prediction:
    """What the report said about a unit whose include closure is `files` (and which failed at the given place)."""
    found = [b for rel in files for b in blockers.get(rel, [])]
    near = in_file = False
    if error_file:
        here = blockers.get(os.path.normpath(error_file).replace(os.sep, "/"), [])
        in_file = bool(here)
        near = bool(error_line) and any(abs(b.line - error_line) <= NEAR for b in here)
    return Prediction(bool(found), any(b.severity == "error" for b in found), near, in_file,
                      tuple(sorted({b.code for b in found})))
