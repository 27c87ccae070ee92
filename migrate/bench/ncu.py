"""NVIDIA Nsight Compute (`ncu`) as the per-kernel profiler of `hipmigrate bench --kernels`.

The benchmark's command runs under

    ncu --csv --log-file FILE --print-units base --print-kernel-base demangled --clock-control none
        --cache-control none --target-processes all --metrics gpu__time_duration.sum COMMAND...

- `gpu__time_duration.sum` is the time from the kernel's start to its end on the GPU: one metric, one pass, so
  no launch is replayed;
- `--clock-control none` leaves the GPU's clocks as the driver sets them (ncu locks them to base clocks by
  default, which a timing run on the other GPU does not do); `--cache-control none` does not flush the caches
  before each launch (ncu flushes them by default), so a kernel sees the caches the program leaves it, as
  rocprofv3's trace on ROCm does;
- `--target-processes all` follows the shell and any child processes to the program;
- `--log-file` keeps the CSV out of the program's stdout, where the figure and `expect` are read.

ncu serializes launches; a kernel's duration is its own, not its overlap with others.

The CSV (one row per launch and metric; recorded on the H200 in tests/data/kernels/ncu/) has the columns
"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device",
"CC","Section Name","Metric Name","Metric Unit","Metric Value"; "Block Size" and "Grid Size" read "(256, 1, 1)";
values may hold thousands separators ("12,345"). Lines that are not CSV rows (==PROF== notes, warnings) are
skipped.
"""
from __future__ import annotations

import csv
import re
from pathlib import Path

from migrate.bench.kernels import Launch

TOOL = "ncu"
METRIC = "gpu__time_duration.sum"
OPTIONS = ("--csv", "--print-units", "base", "--print-kernel-base", "demangled", "--clock-control", "none",
           "--cache-control", "none", "--target-processes", "all", "--metrics", METRIC)
UNITS = {"nsecond": 1.0, "ns": 1.0, "usecond": 1e3, "us": 1e3, "msecond": 1e6, "ms": 1e6, "second": 1e9, "s": 1e9}
DIMS = re.compile(r"\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\)")


class ProfileError(Exception):
    """The profiler's output cannot be read (the run is then recorded as failed, with this message)."""


def prefix(tool: str, output: Path) -> list[str]:
    """The words put before the benchmark's command; the CSV goes to `output`."""
    return [tool, OPTIONS[0], "--log-file", str(output), *OPTIONS[1:]]


def output_of(output: Path) -> str:
    """The raw CSV a profiled run left (kept with --profile-dir)."""
    try:
        return output.read_text(errors="replace")
    except OSError as exc:
        raise ProfileError(f"ncu wrote no output file {output.name}: {exc.strerror or exc}") from None


def parse(text: str) -> list[Launch]:
    """The launches of ncu's CSV, in the order ncu profiled them (by "ID" within each process)."""
    rows = [line for line in text.splitlines() if line.startswith('"')]
    if not rows:
        return []
    needed = {"ID", "Kernel Name", "Metric Name", "Metric Unit", "Metric Value"}
    missing = needed - set(next(csv.reader(rows[:1])))
    if missing:
        raise ProfileError(f"ncu's CSV lacks the column(s) {', '.join(sorted(missing))}")
    launches = []
    for row in csv.DictReader(rows):
        if row["Metric Name"] != METRIC:
            continue
        unit = row["Metric Unit"].strip()
        if unit not in UNITS:
            raise ProfileError(f"ncu's CSV gives {METRIC} in {unit!r}, not a time unit hipmigrate knows")
        try:
            value = float(row["Metric Value"].replace(",", ""))
        except ValueError:
            raise ProfileError(f"ncu's CSV gives {METRIC} as {row['Metric Value']!r}, not a number") from None
        launches.append(Launch(row["Kernel Name"], value * UNITS[unit], _dims(row.get("Grid Size")),
                               _dims(row.get("Block Size"))))
    return launches


def _dims(text: str | None) -> tuple[int, int, int] | None:
    m = DIMS.fullmatch((text or "").strip())
    return None if m is None else (int(m[1]), int(m[2]), int(m[3]))


def version_of(text: str) -> str | None:
    """"2025.3.1.0" from `ncu --version`'s "Version 2025.3.1.0 (build ...)"."""
    m = re.search(r"Version\s+([0-9][0-9.]*)", text)
    return m[1] if m else None
