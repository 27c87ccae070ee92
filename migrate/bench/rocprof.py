"""rocprofv3 (ROCm's ROCprofiler-SDK) as the per-kernel profiler of `hipmigrate bench --kernels`.

The benchmark's command runs under

    rocprofv3 --kernel-trace --stats --output-format csv -d DIR -o kernels -- COMMAND...

which writes one `*kernel_trace.csv` per profiled process somewhere under DIR (rocprofv3 puts the process id or
host name into the path, depending on its version), and with `--stats` a `*kernel_stats.csv` of the same figures
summed per kernel, kept with --profile-dir for a person to read; hipmigrate reads every trace it finds there, as the
per-launch durations the statistics need come from the trace.

The trace's columns, as rocprofv3's documentation gives them (ROCprofiler-SDK, "Using rocprofv3", kernel trace;
the test data in tests/data/kernels/rocprofv3/ is written in that format):
"Kind","Agent_Id","Queue_Id","Stream_Id","Thread_Id","Dispatch_Id","Kernel_Id","Kernel_Name","Correlation_Id",
"Start_Timestamp","End_Timestamp","LDS_Block_Size","Scratch_Size","VGPR_Count","Accum_VGPR_Count","SGPR_Count",
"Workgroup_Size_X","Workgroup_Size_Y","Workgroup_Size_Z","Grid_Size_X","Grid_Size_Y","Grid_Size_Z".
Timestamps are in nanoseconds; a launch's duration is End_Timestamp - Start_Timestamp. The grid is counted in
work-items (threads), so the grid in blocks that hipmigrate records, as CUDA counts it, is Grid_Size divided by
Workgroup_Size in each dimension. Rows are not in launch order: they are sorted by Start_Timestamp.
"""
from __future__ import annotations

import csv
from pathlib import Path

from migrate.bench.kernels import Launch
from migrate.bench.ncu import ProfileError

TOOL = "rocprofv3"
NEEDED = ("Kernel_Name", "Start_Timestamp", "End_Timestamp")


def prefix(tool: str, output: Path) -> list[str]:
    """The words put before the benchmark's command; the trace goes under the folder `output`."""
    return [tool, "--kernel-trace", "--stats", "--output-format", "csv", "-d", str(output), "-o", "kernels", "--"]


def output_of(output: Path) -> str:
    """Every kernel trace under `output`, joined (each with its header), for parse() and --profile-dir."""
    files = sorted(output.rglob("*kernel_trace.csv")) if output.is_dir() else []
    if not files:
        raise ProfileError(f"rocprofv3 wrote no kernel_trace.csv under {output.name}")
    return "".join(f.read_text(errors="replace") for f in files)


def parse(text: str) -> list[Launch]:
    """The launches of one or more kernel traces (each starting with its header row), by start time."""
    rows: list[tuple[int, Launch]] = []
    header: list[str] | None = None
    for record in csv.reader(text.splitlines()):
        if not record:
            continue
        if "Kernel_Name" in record:
            header = record
            missing = [c for c in NEEDED if c not in header]
            if missing:
                raise ProfileError(f"rocprofv3's kernel trace lacks the column(s) {', '.join(missing)}")
            continue
        if header is None:
            raise ProfileError("rocprofv3's kernel trace has no header row")
        row = dict(zip(header, record))
        try:
            start, end = int(row["Start_Timestamp"]), int(row["End_Timestamp"])
        except ValueError:
            raise ProfileError(f"rocprofv3's kernel trace has a timestamp that is not a whole number: {record}") from None
        block = _dims(row, "Workgroup_Size_")
        threads = _dims(row, "Grid_Size_")
        grid = None
        if block and threads and all(block):
            grid = tuple(-(-t // b) for t, b in zip(threads, block))
        rows.append((start, Launch(row["Kernel_Name"], float(end - start), grid, block)))
    return [launch for _, launch in sorted(rows, key=lambda r: r[0])]


def _dims(row: dict, stem: str) -> tuple[int, int, int] | None:
    try:
        return tuple(int(row[stem + axis]) for axis in "XYZ")  # type: ignore[return-value]
    except (KeyError, ValueError):
        return None


def version_of(text: str) -> str | None:
    """The first word of `rocprofv3 --version` that looks like a version number."""
    for word in text.replace(",", " ").split():
        if word[:1].isdigit() and "." in word:
            return word.strip("v")
    return None
