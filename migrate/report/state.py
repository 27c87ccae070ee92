"""The state under DST/.hipmigrate/: the report model's own serialised form, one versioned JSON file per part.

`run` writes run.json (the `Migration`), `build` writes build.json (the `Build`); `report` reads them back
(migrate.report.load) and `build` reads the HIP release run.json names. Each file is
`{"format": "hipmigrate-state", "version": 2, "part": ..., ...}` (docs/report.md). A file of another format or
version (schema 1 was the JSON output of `run --output-format json` with additions) is not read: the report names
it and says which command to run again.
"""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Iterable, Iterator

from migrate.effort import Effort, FileEffort
from migrate.model import Applicability, AsmSite, Edit, Finding, Fix, Outcome, RuleKind, Severity, Span
from migrate.report.model import Build, FileDiff, FileEntry, Migration, Stored, UnitRow

STATE = ".hipmigrate"
RUN_FILE = "run.json"
BUILD_FILE = "build.json"
BENCH_DIR = "bench"
FORMAT = "hipmigrate-state"
VERSION = 2
RERUN = {"migration": "hipmigrate run", "build": "hipmigrate build"}


class StateError(ValueError):
    """A state file that is not what this hipmigrate writes."""


def finding_dict(f: Finding, fingerprint: str | None = None, state: bool = False) -> dict:
    """A finding as JSON: what every JSON output shows, and with `state` also its byte range, what became of its fix,
    and for compiler diagnostics the compiler's own text."""
    span = f.span
    out = {"path": span.path, "line": span.line, "column": span.column, "code": f.code,
           "severity": _NAMES[f.severity], "kind": _NAMES[f.kind], "message": f.message,
           "fingerprint": fingerprint or f.fingerprint}
    if f.family:
        out["family"] = f.family
    if f.fix is not None:
        out["fix"] = {"title": f.fix.title, "applicability": _NAMES[f.fix.applicability],
                      "edits": [{"start": e.start, "end": e.end, "text": e.text} for e in f.fix.edits]}
    if state:
        out["start"], out["end"] = span.start, span.end
        if f.fix is not None and f.fix.outcome is not None:
            out["fix"]["outcome"] = f.fix.outcome.value
            if f.fix.overlaps:
                out["fix"]["overlaps"] = f.fix.overlaps
        if f.kind is RuleKind.BUILD and f.matched:
            out["matched"] = f.matched
        if f.detail:
            out["detail"] = list(f.detail)
    return out


# enum attributes are slow to read, and a large run writes tens of thousands of findings
_NAMES = {**{s: s.label for s in Severity}, **{k: k.value for k in RuleKind}, **{a: a.value for a in Applicability}}


def stored(d: dict) -> Stored:
    fix = None
    if d.get("fix"):
        edits = tuple(Edit(e["start"], e["end"], e["text"]) for e in d["fix"].get("edits", ()))
        outcome = d["fix"].get("outcome")
        fix = Fix(d["fix"]["title"], edits, Applicability(d["fix"]["applicability"]),
                  Outcome(outcome) if outcome else None, d["fix"].get("overlaps", ""))
    start = d.get("start", 0)
    span = Span(d["path"], start, d.get("end", start), d["line"], d["column"])
    finding = Finding(d["code"], RuleKind(d["kind"]), Severity[d["severity"].upper()], d["message"], span, fix,
                      d.get("family", ""), d.get("matched", ""), tuple(d.get("detail", ())))
    return Stored(finding, d.get("fingerprint", finding.fingerprint))


def _header(part: str) -> dict:
    return {"format": FORMAT, "version": VERSION, "part": part}


def _check(doc: dict, part: str) -> None:
    if doc.get("format") == FORMAT and doc.get("version") == VERSION and doc.get("part") == part:
        return
    if doc.get("format") == FORMAT and doc.get("part") == part:
        written = f"version {doc.get('version')} of the state format"
    elif doc.get("schema") == 1:
        written = "an older hipmigrate (schema 1)"
    else:
        written = "something else"
    raise StateError(f"written by {written}, not the {part} record of version {VERSION} that this hipmigrate reads; "
                     f"run `{RERUN[part]}` again to write it")


def migration_dict(m: Migration) -> dict:
    """The migration record; its findings and diffs as iterators, which `encode` writes one at a time (a 20 MB file
    has hundreds of thousands of findings: as dicts and one JSON string they took 20 times the file's size)."""
    e = m.estimate
    return {**_header("migration"), "source": m.source, "destination": m.destination,
            "engine": {"name": m.engine, "version": m.engine_version}, "hip_version": m.hip_version, "lines": m.lines,
            "files": [[f.path, f.status] for f in m.files],
            "findings": (finding_dict(s.finding, s.fingerprint, state=True) for s in m.every),
            "effort": None if e is None else {"unsafe_fixes": e.unsafe_fixes, "total": dataclasses.asdict(e.total),
                                              "files": [dataclasses.asdict(r) for r in e.files]},
            "inline_asm": [dataclasses.asdict(a) for a in m.inline_asm],
            "diffs": ([d.path, Text(d.chunks())] for d in m.diffs), "suppressed": m.suppressed}


def migration(doc: dict) -> Migration:
    from migrate.report.assemble import from_findings

    _check(doc, "migration")
    e = doc["effort"]
    estimate = None if e is None else Effort(tuple(FileEffort(**r) for r in e["files"]), FileEffort(**e["total"]),
                                             bool(e["unsafe_fixes"]))
    asm = tuple(AsmSite(a["path"], a["line"], a["column"], tuple(a["instructions"]),
                        tuple(tuple(s) for s in a["suggestions"])) for a in doc["inline_asm"])
    return from_findings(
        tuple(stored(d) for d in doc["findings"]), source=doc["source"] or "", destination=doc["destination"],
        engine=doc["engine"]["name"], engine_version=doc["engine"]["version"], hip_version=doc["hip_version"],
        files=tuple(FileEntry(*f) for f in doc["files"]), lines=doc["lines"], estimate=estimate, inline_asm=asm,
        diffs=tuple(FileDiff(*d) for d in doc["diffs"]), suppressed=doc["suppressed"])


def build_dict(b: Build) -> dict:
    return {**_header("build"), "targets": list(b.targets), "hipcc": b.hipcc, "hip_version": b.hip_version,
            "units": [dataclasses.asdict(u) for u in b.units], "skipped": list(b.skipped), "project": b.project,
            "findings": [finding_dict(s.finding, s.fingerprint, state=True) for s in b.findings], "failed": b.failed,
            "units_of": [[list(key), list(units)] for key, units in b.units_of]}


def build(doc: dict) -> Build:
    _check(doc, "build")
    return Build(tuple(doc["targets"]), doc["hipcc"], doc["hip_version"], tuple(UnitRow(**u) for u in doc["units"]),
                 tuple(doc["skipped"]), doc["project"], tuple(stored(d) for d in doc["findings"]), bool(doc["failed"]),
                 tuple((tuple(key), tuple(units)) for key, units in doc["units_of"]))


def encode(doc: dict) -> bytes:
    """On one line: json's C encoder writes it 3-4 times faster than with indentation (0.3 s instead of 1 s for
    2,000 files)."""
    return b"".join(chunks(doc))


class Text:
    """A JSON string to be written from its pieces (a huge file's unified diff), as an item of a list in a state."""

    def __init__(self, pieces: Iterable[str]):
        self.pieces = pieces


def _streamed(item: list) -> Iterator[str]:
    """A list holding Text written in pieces; escaping each piece escapes the whole, character by character."""
    yield "["
    for i, value in enumerate(item):
        yield ", " if i else ""
        if isinstance(value, Text):
            yield '"'
            yield from (json.dumps(piece)[1:-1] for piece in value.pieces)
            yield '"'
        else:
            yield json.dumps(value)
    yield "]"


def chunks(doc: dict) -> Iterator[bytes]:
    """`doc` as `encode` writes it, in pieces: a value that is an iterator (not a list) is written as a JSON list one
    item at a time, and a list item holding Text piece by piece, so that neither the items nor the whole text need
    be held at once. The bytes are json.dumps's."""
    head = "{"
    for key, value in doc.items():
        if isinstance(value, Iterator):
            yield f"{head}{json.dumps(key)}: ".encode()
            yield from (piece.encode() for piece in _listed(value))
        else:
            yield f"{head}{json.dumps(key)}: {json.dumps(value)}".encode()
        head = ", "
    yield ("}" if doc else "{}").encode() + b"\n"


def _listed(items: Iterator) -> Iterator[str]:
    """A JSON list of `items`, in parts: plain items a thousand at a time, an item holding Text piece by piece."""
    def parts() -> Iterator[Iterable[str]]:
        batch: list[str] = []
        for item in items:
            if isinstance(item, list) and any(isinstance(v, Text) for v in item):
                if batch:
                    yield (", ".join(batch),)
                    batch = []
                yield _streamed(item)
            else:
                batch.append(json.dumps(item))
                if len(batch) == 1000:
                    yield (", ".join(batch),)
                    batch = []
        if batch:
            yield (", ".join(batch),)

    yield "["
    for n, part in enumerate(parts()):
        if n:
            yield ", "
        yield from part
    yield "]"


def run_state(m: Migration) -> dict[str, Iterator[bytes]]:
    """The files of .hipmigrate/ that `run` writes with the output tree, by path relative to it, as pieces of text."""
    return {f"{STATE}/{RUN_FILE}": chunks(migration_dict(m))}


def migrated_for(root) -> str | None:
    """The HIP release `run` migrated the tree at `root` for (run.json's hip_version), None without one."""
    try:
        with open(Path(root) / STATE / RUN_FILE, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError):
        return None
    version = doc.get("hip_version") if isinstance(doc, dict) else None
    return version if isinstance(version, str) else None
