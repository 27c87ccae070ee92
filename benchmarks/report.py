"""Time and peak memory of building every report format for a migration of 2,000 files.

    python benchmarks/report.py [--files 2000] [--lines 100000] [--repeat 3] [--keep DIR]

The synthetic corpus (benchmarks/corpus.py) is migrated once by `hipmigrate run` (timed on its own, in a
child process), a build record is added (every HIP unit compiled for gfx90a and gfx940, as `hipmigrate build`
writes it, but made up: compiling 2,000 files is not what is measured here) and the comparison of the two H200
results files of samples/bench is asked for. Then each format is built in a fresh child process: it reads
DST/.hipmigrate/, builds the `Report` and renders it to a file. The time is measured inside the child around
the loading and rendering (imports excluded; best of --repeat); the peak RSS is the child's
(resource.getrusage), with the RSS after the imports given apart. A measurement, not a test: exit 0 whatever
the numbers.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


FORMATS = ("text", "html", "md", "json", "sarif")
BENCH = (REPO / "samples" / "bench" / "h200-run1.json", REPO / "samples" / "bench" / "h200-run2.json")

CHILD = r"""
import json, resource, sys, time
from pathlib import Path
from migrate import api, formats
fmt, dst, out, base, cand = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3]), Path(sys.argv[4]), Path(sys.argv[5])
import migrate.render.html, migrate.render.markdown, migrate.render.report_text, migrate.render.report_json
import migrate.render.report_sarif
imported_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
started = time.perf_counter()
report = api.report(dst, (base, cand))
loaded = time.perf_counter()
text = formats.render(fmt, "report", report, formats.Context(codes=api.codes()))
out.write_text(text, encoding="utf-8")
done = time.perf_counter()
print(json.dumps({"load_s": loaded - started, "render_s": done - loaded, "total_s": done - started,
                  "bytes": out.stat().st_size, "imported_kb": imported_kb,
                  "peak_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}))
"""


def migrate_corpus(work: Path, files: int, lines: int) -> tuple[Path, float, dict]:
    src, dst = work / "src", work / "dst"
    in_child(f"from benchmarks import corpus; corpus.generate(Path({str(src)!r}), files={files}, lines={lines})")
    started = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "migrate", "run", str(src), "--out", str(dst), "--no-progress"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=REPO)
    seconds = time.perf_counter() - started
    if proc.returncode not in (0, 1):
        sys.exit(f"hipmigrate run failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
    summary = in_child("import json; from migrate.report import state; "
                       "m = state.migration(json.loads(Path(%r).read_text())); "
                       "print(json.dumps({'files': len(m.files), 'files_changed': m.count('migrated'), "
                       "'lines': m.lines, 'conversions': m.conversions, 'by_code': m.by_code}))"
                       % str(dst / ".hipmigrate" / "run.json"))
    return dst, seconds, json.loads(summary)


BUILD_RECORD = """
from migrate.model import BuildResult, UnitResult
from migrate import api
from migrate.stages.verify import units
dst = Path(%r)
hip, plain = units(dst)
rows = tuple(UnitResult(p.relative_to(dst).as_posix(), t, "ok", 1.0, (), ("hipcc",))
             for p in hip for t in ("gfx90a", "gfx940"))
result = BuildResult(str(dst), None, ("gfx90a", "gfx940"), "/usr/bin/hipcc", "5.2.21153-0", rows,
                     tuple(p.relative_to(dst).as_posix() for p in plain))
api.write_build_state(dst, result)
print(len(rows))
"""


def in_child(code: str) -> str:
    """Run `code` in a child Python (with Path imported): this process stays small, and a child's peak RSS,
    which Linux carries over from the process that forked it, stays its own."""
    proc = subprocess.run([sys.executable, "-c", "from pathlib import Path\n" + code], capture_output=True, text=True,
                          cwd=REPO)
    if proc.returncode != 0:
        sys.exit(proc.stderr[-2000:])
    return proc.stdout


def add_build_record(dst: Path) -> int:
    """A build.json like `hipmigrate build` writes: each HIP unit compiled for two targets, all ok."""
    return int(in_child(BUILD_RECORD % str(dst)))


def measure(fmt: str, dst: Path, out_dir: Path, repeat: int) -> dict:
    best = None
    for _ in range(repeat):
        out = out_dir / f"report.{fmt}"
        proc = subprocess.run([sys.executable, "-c", CHILD, fmt, str(dst), str(out), *map(str, BENCH)],
                              capture_output=True, text=True, cwd=REPO)
        if proc.returncode != 0:
            sys.exit(f"report {fmt} failed:\n{proc.stderr[-2000:]}")
        row = json.loads(proc.stdout)
        if best is None or row["total_s"] < best["total_s"]:
            best = row
    return best


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", type=int, default=2000)
    ap.add_argument("--lines", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--keep", type=Path, default=None, help="work in this (new) folder and keep it")
    args = ap.parse_args(argv)
    work = args.keep or Path(tempfile.mkdtemp(prefix="hipmigrate-report-bench-"))
    dst, run_s, summary = migrate_corpus(work, args.files, args.lines)
    compiles = add_build_record(dst)
    state = (dst / ".hipmigrate" / "run.json").stat().st_size
    print(f"migration: {summary['files']} files, {summary['lines']} lines, {summary['files_changed']} changed; "
          f"`hipmigrate run` {run_s:.1f} s (whole process); run.json {state / 1e6:.1f} MB; build record "
          f"{compiles} compiles; comparison of samples/bench/h200-run1.json and h200-run2.json")
    print(f"{'format':<6} {'load s':>7} {'render s':>8} {'total s':>7} {'output':>9} {'RSS after imports':>17} "
          f"{'peak RSS':>9}")
    for fmt in FORMATS:
        r = measure(fmt, dst, work, args.repeat)
        print(f"{fmt:<6} {r['load_s']:>7.2f} {r['render_s']:>8.2f} {r['total_s']:>7.2f} "
              f"{r['bytes'] / 1e6:>7.2f}MB {r['imported_kb'] / 1024:>15.0f}MB {r['peak_kb'] / 1024:>7.0f}MB")
    if args.keep is None:
        import shutil
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
