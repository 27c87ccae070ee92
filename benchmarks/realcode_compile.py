"""Compiles of the corpus's units: nvcc for the original, hipcc for each migration and the human port.

Every compile is a real one (`-c`, an object written and thrown away), run from the tree's root so that the
diagnostics name paths relative to it. Outcomes are kept in the compile cache of `hipmigrate build`
(migrate/verify/compile_cache.py), in the folder CACHE/compiles: keyed by the compiler and its version, the command
and the bytes of every file the unit may include, so a second run compiles only what changed.
"""
from __future__ import annotations

import os
import re
import subprocess
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from migrate.verify import compile_cache

TOOLCHAIN = Path("/opt/hipmigrate/toolchain")
CUDA_INCLUDE = TOOLCHAIN / "cuda" / "include"
TIMEOUT = 600

CLANG_ERROR = re.compile(r"^(?P<file>[^\s:][^:]*?):(?P<line>\d+):(?:\d+:)? (?:fatal )?error: (?P<msg>.*)$")
NVCC_ERROR = re.compile(r"^(?P<file>\S.*?)\((?P<line>\d+)\): (?:catastrophic )?error:? (?P<msg>.*)$")
BARE_ERROR = re.compile(r"^(?:\S*(?:clang|hipcc|nvcc|ptxas|ld)\S*\s*)?(?:fatal )?error\s*:\s*(?P<msg>.*)$|"
                        r"^nvcc fatal\s*:\s*(?P<fatal>.*)$", re.IGNORECASE)


def hipcc(version: str) -> Path:
    return TOOLCHAIN / f"hip-{version}" / "bin" / "hipcc"


@dataclass(frozen=True)
class Job:
    variant: str  # nvcc, hipmigrate@6.4, hipify-perl@6.4, port@6.4, ...
    unit: str  # the unit's path in the original, which names it in every table
    root: str  # the tree compiled in
    path: str  # the file compiled, relative to root
    compiler: str
    flags: tuple[str, ...]
    include: tuple[str, ...]  # project include folders, relative to root
    hip: bool


@dataclass(frozen=True)
class Outcome:
    ok: bool
    seconds: float
    error: str | None = None  # the first error's message
    error_file: str | None = None
    error_line: int | None = None
    output: str = ""  # the compiler's output, cut to its first lines
    cached: bool = False


def nvcc_job(unit: str, root: Path, include, defines, extra) -> Job:
    flags = ("-arch=sm_90", "-std=c++17", *extra, *(f"-D{d}" for d in defines), f"-I{CUDA_INCLUDE}")
    return Job("nvcc", unit, str(root), unit, "nvcc", flags, tuple(include), False)


def hip_job(variant: str, version: str, unit: str, root: Path, path: str, include, defines) -> Job:
    flags = ("-x", "hip", "-std=c++17", "--offload-arch=gfx942", *(f"-D{d}" for d in defines))
    return Job(f"{variant}@{version}", unit, str(root), path, str(hipcc(version)), flags, tuple(include), True)


def argv(job: Job, obj: str) -> list[str]:
    folders = [str(Path(job.path).parent) or ".", *job.include]
    return [job.compiler, *job.flags, *(f"-I{f}" for f in dict.fromkeys(folders)), "-c", job.path, "-o", obj]


def first_error(output: str) -> tuple[str | None, str | None, int | None]:
    """The first error line of a compiler's output: (message, file, line); the file is None without a place."""
    for raw in output.splitlines():
        line = raw.rstrip()
        m = CLANG_ERROR.match(line) or NVCC_ERROR.match(line)
        if m:
            return m["msg"].strip(), m["file"], int(m["line"])
        m = BARE_ERROR.match(line)
        if m:
            return (m["msg"] or m["fatal"] or "").strip(), None, None
    return None, None, None


TARGETS = {True: "gfx942", False: "sm_90"}  # the target of hip_job's and nvcc_job's flags
_memo: dict = {}  # the toolkits' headers, read once for every unit's cache key


def compile_one(job: Job, cache: Path | None) -> Outcome:
    env = dict(os.environ, HIP_PLATFORM="amd") if job.hip else dict(os.environ)
    root = Path(job.root)
    with tempfile.TemporaryDirectory(prefix="realcode-") as tmp:
        obj = os.path.join(tmp, "unit.o")
        cmd = argv(job, obj)
        key = None if cache is None else compile_cache.key(
            job.compiler, compile_cache.version(job.compiler, env), cmd[1:], TARGETS[job.hip], root / job.path, root,
            root, env, {obj: "<object>"}, _memo)
        hit = None if key is None else compile_cache.load(cache, key, root)
        if hit is not None:
            rc, output, seconds = hit.status, hit.output, round(hit.seconds, 2)
        else:
            start = time.monotonic()
            try:
                done = subprocess.run(cmd, cwd=job.root, env=env, capture_output=True, text=True, errors="replace",
                                      timeout=TIMEOUT)
                rc, output = done.returncode, done.stdout + done.stderr
            except subprocess.TimeoutExpired:
                rc, output = -1, f"error: timed out after {TIMEOUT} s"
            seconds = round(time.monotonic() - start, 2)
            if key is not None and rc != -1:  # a compile that timed out is not kept
                compile_cache.save(cache, key, compile_cache.Outcome(output, rc, seconds), root)
    message, file, line = first_error(output) if rc else (None, None, None)
    if rc and message is None:
        tail = [l for l in output.splitlines() if l.strip()]
        message = tail[-1] if tail else f"exit status {rc} without a message"
    kept = "\n".join(output.splitlines()[:40])
    return Outcome(rc == 0, seconds, message, file, line, kept, hit is not None)


def compile_all(jobs: list[Job], workers: int, cache: Path | None, progress=None) -> dict[Job, Outcome]:
    """Every job, `workers` at a time; `progress(job, outcome)` after each."""
    results = {}

    def one(job):
        outcome = compile_one(job, cache)
        if progress:
            progress(job, outcome)
        return job, outcome

    with ThreadPoolExecutor(max_workers=workers) as pool:
        for job, outcome in pool.map(one, jobs):
            results[job] = outcome
    return results
