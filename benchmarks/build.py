"""Compile-check wall time of every migrated sample for the default AMD targets, with 1 and 2 jobs.

    python benchmarks/build.py [--targets gfx90a gfx940]

Each sample is migrated (HIP 5.2, the HIP of Debian 12's hipcc) into a temporary folder, then
`hipmigrate build` compiles each HIP unit once per target; the same units are timed with 1 and 2 parallel
compiles, and the speed-up is printed.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from migrate import api  # noqa: E402
from migrate.options import Options  # noqa: E402


def migrate_samples(work: Path) -> list[Path]:
    trees = []
    for src in sorted((ROOT / "samples").glob("*/src")):
        out = work / src.parent.name
        api.run(src, out, Options(hip_version="5.2"))
        trees.append(out)
    return trees


def timed_build(trees: list[Path], targets: tuple[str, ...], jobs: int) -> tuple[float, int, int]:
    started = time.perf_counter()
    compiles = failures = 0
    for tree in trees:
        result = api.build(tree, targets, jobs)
        compiles += len(result.units)
        failures += sum(1 for u in result.units if u.status != "ok")
    return time.perf_counter() - started, compiles, failures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--targets", nargs="+", default=list(Options().offload_arch))
    args = parser.parse_args(argv)
    targets = tuple(args.targets)
    with tempfile.TemporaryDirectory(prefix="hipmigrate-bench-build-") as tmp:
        trees = migrate_samples(Path(tmp))
        api.build(trees[0], targets, 1)  # warm the toolchain probe and the file cache, untimed
        rows = [(jobs, *timed_build(trees, targets, jobs)) for jobs in (1, 2)]
    print(f"compile checks of {len(trees)} samples for {', '.join(targets)}")
    print(f"{'jobs':>4} {'compiles':>9} {'failed':>7} {'wall s':>8} {'s/compile':>10}")
    for jobs, wall, compiles, failures in rows:
        print(f"{jobs:>4} {compiles:>9} {failures:>7} {wall:>8.2f} {wall / max(compiles, 1):>10.2f}")
    print(f"speed-up with 2 jobs: {rows[0][1] / rows[1][1]:.2f}x")
    return 0 if all(r[3] == 0 for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
