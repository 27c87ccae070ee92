"""Baselines: the findings a project already has, recorded so that the gate fails only on new ones.

A finding is known by `Finding.fingerprint` (rule code, path and whitespace-normalised matched text; no line
number), so moving code up or down keeps it baselined. The file counts each fingerprint: two identical
`cudaFree(p)` calls in one file are two entries, and a third one added later is reported.

    {"tool": "hipmigrate", "version": 1,
     "findings": [{"fingerprint": "...", "code": "MAP001", "path": "src/k.cu", "line": 12, "matched": "cudaFree"}]}

`line` and `matched` are there for people reading the file; only `fingerprint` is compared.
"""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from migrate.model import Finding
from migrate.errors import UsageError, output_error
from migrate.files import atomic_write

VERSION = 1


def load(path: Path, name: str = "--baseline") -> Counter[str]:
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UsageError(f"{name} {path}: no such file; create it with --write-baseline {path}") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise UsageError(f"{name} {path}: not a hipmigrate baseline ({exc})") from None
    if not isinstance(doc, dict) or doc.get("tool") != "hipmigrate" or doc.get("version") != VERSION \
            or not isinstance(doc.get("findings"), list):
        raise UsageError(f"{name} {path}: not a hipmigrate baseline of version {VERSION}")
    return Counter(str(e.get("fingerprint")) for e in doc["findings"] if isinstance(e, dict))


def write(path: Path, findings: list[Finding]) -> None:
    entries = [{"fingerprint": f.fingerprint, "code": f.code, "path": f.span.path, "line": f.span.line,
                "matched": " ".join(f.matched.split())}
               for f in sorted(findings, key=lambda f: (f.span.path, f.span.line, f.span.column, f.code))]
    doc = {"tool": "hipmigrate", "version": VERSION, "findings": entries}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, (json.dumps(doc, indent=2) + "\n").encode())
    except OSError as exc:
        raise output_error(exc, path, f"{path} was left as it was") from None


def split(findings: list[Finding], known: Counter[str]) -> tuple[list[Finding], list[Finding]]:
    """(new, baselined): each baseline entry absorbs one finding with its fingerprint, in file order."""
    left = Counter(known)
    new, old = [], []
    for f in sorted(findings, key=lambda f: (f.span.path, f.span.start, f.code)):
        fp = f.fingerprint
        if left[fp] > 0:
            left[fp] -= 1
            old.append(f)
        else:
            new.append(f)
    return new, old
