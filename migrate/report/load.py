"""Read DST/.hipmigrate/ (run.json, build.json: the report model's state; kernels.json: the kernel diff of `build
--kernels`; bench/*.json: results files of `hipmigrate bench`) into a `Report`.

Each part is optional: a tree `build` never checked has no build section. A state file that exists but cannot
be read (not JSON, another format or version) is named in `Report.problems` and its section left out; a tree with
none of them is a usage error.
"""
from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

from migrate.bench import results as bench_results
from migrate.bench.config import BenchError
from migrate.bench.fingerprint import machine
from migrate.bench.stats import summarize
from migrate.errors import UsageError
from migrate.kernels import state as kernels_state
from migrate.report import state
from migrate.report.model import BenchRow, BenchRun, Report
from migrate.report.state import BENCH_DIR, BUILD_FILE, RUN_FILE, STATE, StateError


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
    except StateError as exc:
        problems.append(f"{rel}: {exc}")
    except (OSError, ValueError, UnicodeDecodeError) as exc:
        problems.append(f"{rel}: cannot be read: {exc}")
    except (KeyError, TypeError) as exc:
        problems.append(f"{rel}: a field is missing or of the wrong type: {exc}")
    return None


def load(root: Path, comparison=None, created: str | None = None) -> Report:
    """The report of the migrated tree `root`; `comparison` is a CompareResult to add (`--bench`)."""
    folder = root / STATE
    if not folder.is_dir():
        raise UsageError(f"{root}: no {STATE}/ folder; give the output tree of `hipmigrate run SRC --out DST`")
    problems: list[str] = []
    run = _read(folder / RUN_FILE, state.migration, problems, root)
    built = _read(folder / BUILD_FILE, state.build, problems, root)
    kernels = _read(folder / kernels_state.FILE, kernels_state.from_dict, problems, root)
    runs = []
    for path in sorted((folder / BENCH_DIR).glob("*.json")):
        try:
            runs.append(bench_run(path, root))
        except BenchError as exc:
            problems.append(str(exc).replace(str(root) + "/", ""))
    if run is None and built is None and kernels is None and not runs and comparison is None and not problems:
        raise UsageError(f"{root}: {STATE}/ holds no {RUN_FILE}, {BUILD_FILE} or {BENCH_DIR}/*.json to report on")
    created = created or datetime.now(timezone.utc).replace(microsecond=0).isoformat()
    return Report(str(root), created, run, built, tuple(runs), comparison, tuple(problems), kernels)
