"""Profiled runs for `hipmigrate bench --kernels`: which profiler this machine has (Nsight Compute on NVIDIA,
rocprofv3 on ROCm), one run of a benchmark's command under it, and the launches it saw.

A profiled run is an ordinary run (its status, exit code, `expect` and figure are read as for any run, see
migrate/bench/runner.py) whose command is wrapped: launcher words first, then the profiler's, then the command.
Its launches count only when the run succeeded and the profiler's output could be read; otherwise the run is
`failed` with the reason."""
from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

from migrate.bench import ncu, rocprof, runner
from migrate.bench.config import BenchError, Figure
from migrate.bench.kernels import Launch
from migrate.bench.ncu import ProfileError
from migrate.bench.runner import Run, Status

MODULES = {ncu.TOOL: ncu, rocprof.TOOL: rocprof}
CHOICES = ("auto", ncu.TOOL, rocprof.TOOL)
OUTPUT = "<profile>"  # stands for the run's own output path in the recorded argv


@dataclass(frozen=True)
class Profiler:
    tool: str  # "ncu" or "rocprofv3"
    path: str
    version: str | None

    def as_dict(self) -> dict:
        return {"tool": self.tool, "path": self.path, "version": self.version}


def _where(tool: str) -> str | None:
    """The tool on PATH, else where CUDA or ROCm put it."""
    found = shutil.which(tool)
    if found:
        return found
    if tool == rocprof.TOOL:
        roots = [os.environ.get("ROCM_PATH", ""), "/opt/rocm"]
    else:
        roots = [os.environ.get("CUDA_HOME", ""), "/usr/local/cuda", *sorted(
            (str(p) for p in Path("/opt/nvidia/nsight-compute").glob("*")), reverse=True)]
    for root in filter(None, roots):
        path = Path(root) / ("" if tool == ncu.TOOL and "nsight-compute" in root else "bin") / tool
        if os.access(path, os.X_OK):
            return str(path)
    return None


def find(choice: str = "auto") -> Profiler:
    """The profiler to use: the one named, or with "auto" ncu where nvidia-smi is found, else rocprofv3, else the
    one of the two that is installed. BenchError when none is."""
    if choice not in CHOICES:
        raise BenchError(f"--profiler {choice!r}: give one of {', '.join(CHOICES)}")
    tools = [choice] if choice != "auto" else (
        [ncu.TOOL, rocprof.TOOL] if shutil.which("nvidia-smi") else [rocprof.TOOL, ncu.TOOL])
    for tool in tools:
        path = _where(tool)
        if path is not None:
            return Profiler(tool, path, _version(tool, path))
    wanted = " or ".join(tools)
    raise BenchError(f"--kernels needs a profiler and none was found: {wanted} (Nsight Compute's ncu on NVIDIA, "
                     f"from the CUDA toolkit; rocprofv3 on ROCm, from ROCprofiler-SDK, in $ROCM_PATH/bin) is not "
                     f"on PATH")


def _version(tool: str, path: str) -> str | None:
    try:
        proc = subprocess.run([path, "--version"], capture_output=True, text=True, errors="replace", timeout=60,
                              stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        return None
    return MODULES[tool].version_of(proc.stdout + proc.stderr)


def argv(profiler: Profiler, command: str | tuple[str, ...], launcher: str | None, output: Path) -> list[str]:
    """Launcher words, the profiler's words (writing to `output`), then the command."""
    return ((shlex.split(launcher) if launcher else []) + MODULES[profiler.tool].prefix(profiler.path, output)
            + runner.argv(command, None))


def recorded_argv(profiler: Profiler, command: str | tuple[str, ...], launcher: str | None) -> list[str]:
    """argv() as the results file records it: the output path of each run reads "<profile>"."""
    return argv(profiler, command, launcher, Path(OUTPUT))


def run_profiled(profiler: Profiler, index: int, command: str | tuple[str, ...], launcher: str | None, cwd: Path,
                 env: dict[str, str], timeout: float, figure: Figure, expect: str | None,
                 keep: Path | None = None) -> tuple[Run, list[Launch]]:
    """One run under the profiler: the run, and its launches (none unless it succeeded). With `keep`, the
    profiler's raw output is written to the file `keep`, whatever the outcome."""
    module = MODULES[profiler.tool]
    with tempfile.TemporaryDirectory(prefix="hipmigrate-profile-") as tmp:
        output = Path(tmp) / ("ncu.csv" if profiler.tool == ncu.TOOL else "trace")
        run = runner.run_once(index, False, argv(profiler, command, launcher, output), cwd, env, timeout, figure,
                              expect)
        try:
            text = module.output_of(output)
        except ProfileError as exc:
            text = None
            problem = str(exc)
        if keep is not None and text is not None:
            keep.parent.mkdir(parents=True, exist_ok=True)
            keep.write_text(text)
    if run.status != Status.OK:
        return run, []
    if text is None:
        return replace(run, status=Status.FAILED, value=None, message=problem), []
    try:
        return run, module.parse(text)
    except ProfileError as exc:
        return replace(run, status=Status.FAILED, value=None, message=str(exc)), []
