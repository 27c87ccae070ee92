"""Read DST/.hipmigrate/ (run.json, build.json, bench/*.json) into a `Report`.

Each part is optional: a tree `build` never checked has no build section. A state file that exists but cannot
be read (not JSON, another schema) is named in `Report.problems` and its section left out; a tree with none
of them is a usage error.
"""
from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

from migrate.bench import results as bench_results
from migrate.bench.config import BenchError
from migrate.bench.stats import summarize
from migrate.effort import FileEffort
from migrate.model import Applicability, Edit, Finding, Fix, Outcome, RuleKind, Severity, Span
from migrate.render.bench import machine
from migrate.report.model import (BenchRow, BenchRun, Build, FileDiff, FileEntry, Migration, Report,
                                  Stored, UnitRow)
from migrate.report.state import BENCH_DIR, BUILD_FILE, RUN_FILE, STATE
from migrate.stages.report import UNSUPPORTED_CODES, is_conversion
from migrate.stages.scan import UsageError
from migrate.render.build import error_key, first_error

SCHEMA = 1  # of run.json and build.json (docs/json.md)


class StateError(ValueError):
    """A state file that is not what this hipmigrate writes."""


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
                      d.get("family", ""))
    return Stored(finding, d.get("fingerprint", finding.fingerprint))


def sections(findings: list[Stored]) -> tuple[list[Stored], list[Stored], list[Stored], list[Stored]]:
    """(unsupported, hazards, warnings, notes), as `summarize` sorts them, with hazards on their own."""
    unsupported, hazards, warnings, notes = [], [], [], []
    for s in findings:
        f = s.finding
        if is_conversion(f):
            continue
        if f.code in UNSUPPORTED_CODES:
            unsupported.append(s)
        elif f.kind is RuleKind.HAZARD:
            hazards.append(s)
        elif f.severity >= Severity.WARNING or f.kind is RuleKind.INPUT:
            warnings.append(s)
        elif f.fix is None and f.kind in (RuleKind.PYTHON, RuleKind.BUILD):
            notes.append(s)
    return unsupported, hazards, warnings, notes


def effort_row(d: dict) -> FileEffort:
    return FileEffort(d.get("path", ""), d["lines"], d["lines_changed"], d["hazards_fixed"], d["hazards_to_review"],
                     d["review_weight"], d["class"])


def migration(doc: dict) -> Migration:
    if doc.get("schema") != SCHEMA or doc.get("command") != "run":
        raise StateError(f"not a run record of schema {SCHEMA}")
    found = [stored(d) for d in doc["findings"]]
    unsupported, hazards, warnings, notes = sections(found)
    effort = doc.get("effort")
    rows = None
    if effort is not None:
        busy = [effort_row(r) for r in effort["files"] if r["lines_changed"] or r["hazards_fixed"]
                or r["hazards_to_review"]]
        rows = tuple(busy) + (effort_row(effort["total"]),)
    summary = doc["summary"]
    return Migration(
        source=doc.get("source") or "", engine=doc["engine"]["name"], engine_version=doc["engine"]["version"],
        hip_version=doc["hip_version"], files=tuple(FileEntry(f["path"], f["status"]) for f in doc["files"]),
        lines=summary["lines"], conversions=dict(summary["conversions"]), by_code=dict(summary["by_code"]),
        unsupported=tuple(unsupported), hazards=tuple(hazards), warnings=tuple(warnings), notes=tuple(notes),
        effort=rows, effort_class=effort["class"] if effort else None,
        unsafe_fixes=bool(effort and effort.get("unsafe_fixes")), inline_asm=tuple(doc.get("inline_asm", ())),
        diffs=tuple(FileDiff(d["path"], d["diff"]) for d in doc.get("diffs", ())))


def build(doc: dict) -> Build:
    if doc.get("schema") != SCHEMA or doc.get("command") != "build":
        raise StateError(f"not a build record of schema {SCHEMA}")
    units, findings, met = [], [], {}
    for u in doc["units"]:
        mine = [stored(d) for d in u["findings"]]
        findings.extend(mine)
        for s in mine:
            if s.finding.severity is Severity.ERROR:
                met.setdefault(error_key(s.finding), []).append(u["path"])
        errors = sum(1 for s in mine if s.finding.severity is Severity.ERROR)
        first = first_error(s.finding for s in mine) if u["status"] != "ok" else ""
        units.append(UnitRow(u["path"], u["target"], u["status"], u["seconds"], errors, len(mine) - errors, first))
    project = doc.get("project")
    if project is not None:
        findings.extend(stored(d) for d in project["findings"])
        project = {k: project[k] for k in ("command", "status", "seconds", "output_tail")}
    return Build(tuple(doc["targets"]), doc["hipcc"], doc["hip_version"], tuple(units), tuple(doc["skipped"]),
                 project, tuple(findings), bool(doc["failed"]),
                 tuple((key, tuple(dict.fromkeys(paths))) for key, paths in met.items()))


def bench_run(path: Path, root: Path) -> BenchRun:
    r = bench_results.load(path)
    rows = tuple(BenchRow(b.name, b.status, b.figure.get("unit", ""), bool(b.figure.get("higher_is_better")),
                          summarize(b.values)) for b in r.benchmarks)
    return BenchRun(path.relative_to(root).as_posix(), r.created, machine(r.fingerprint), rows)


def _read(path: Path, parse, problems: list[str], root: Path):
    if not path.is_file():
        return None
    rel = path.relative_to(root).as_posix()
    try:
        return parse(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, UnicodeDecodeError) as exc:
        problems.append(f"{rel}: cannot be read: {exc}")
    except (KeyError, TypeError) as exc:
        problems.append(f"{rel}: a field is missing or of the wrong type: {exc}")
    return None


def load(root: Path, comparison=None, created: str | None = None) -> Report:
    """The report of the migrated tree `root`; `comparison` is a CompareResult to add (`--bench`)."""
    state = root / STATE
    if not state.is_dir():
        raise UsageError(f"{root}: no {STATE}/ folder; give the output tree of `hipmigrate run SRC --out DST`")
    problems: list[str] = []
    run = _read(state / RUN_FILE, migration, problems, root)
    built = _read(state / BUILD_FILE, build, problems, root)
    runs = []
    for path in sorted((state / BENCH_DIR).glob("*.json")):
        try:
            runs.append(bench_run(path, root))
        except BenchError as exc:
            problems.append(str(exc).replace(str(root) + "/", ""))
    if run is None and built is None and not runs and comparison is None and not problems:
        raise UsageError(f"{root}: {STATE}/ holds no {RUN_FILE}, {BUILD_FILE} or {BENCH_DIR}/*.json to report on")
    created = created or datetime.now(timezone.utc).replace(microsecond=0).isoformat()
    return Report(str(root), created, run, built, tuple(runs), comparison, tuple(problems))
