"""AMD's hipify-perl as an alternative engine: found, run for real, its warnings turned into findings."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from migrate.model import Finding, RuleKind, Severity, Span
from migrate.toolchain import TOOLCHAIN

WARNING = re.compile(r"^\s*warning: (.+?):(\d+): (.*)$")
CONVERTED = re.compile(r"^\s+(\S+) => (\S+): (\d+)$")
FILE_STATS = re.compile(r"^\[HIPIFY\] info: file '(.+)' statistics:")


class EngineError(Exception):
    """The external engine is missing or failed."""


def find() -> Path | None:
    """hipify-perl from $HIPIFY_PERL, PATH, /opt/rocm/bin or the toolchain that scripts/install-toolchain made."""
    env = os.environ.get("HIPIFY_PERL")
    if env:
        return Path(env) if Path(env).is_file() else None
    on_path = shutil.which("hipify-perl")
    if on_path:
        return Path(on_path)
    rocm = Path(os.environ.get("ROCM_PATH", "/opt/rocm")) / "bin" / "hipify-perl"
    for candidate in (rocm, TOOLCHAIN / "bin" / "hipify-perl"):
        if candidate.is_file():
            return candidate
    return None


def version(tool: Path) -> str:
    try:
        out = subprocess.run(["perl", str(tool), "--version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError) as exc:
        raise EngineError(f"{tool}: cannot run: {exc}") from exc
    m = re.search(r"(\d+\.\d+(?:\.\d+)?)", out.stdout + out.stderr)
    return m.group(1) if m else "unknown"


@dataclass(frozen=True)
class PerlOutput:
    data: dict[str, bytes]  # relative path -> translated bytes
    findings: dict[str, list[Finding]]  # relative path -> findings from its warnings
    converted: dict[str, dict[str, int]]  # relative path -> "cuda => hip" -> count


def groups(files: dict[str, bytes], jobs: int) -> list[list[str]]:
    """The paths split into up to `jobs` groups of about the same size in bytes, each and all in path order."""
    count = max(1, min(jobs, len(files)))
    sizes, shares = [0] * count, [[] for _ in range(count)]
    for rel in sorted(files, key=lambda r: (-len(files[r]), r)):  # largest first, each to the lightest group
        i = sizes.index(min(sizes))
        sizes[i] += len(files[rel])
        shares[i].append(rel)
    return sorted(sorted(share) for share in shares if share)


def run(tool: Path, files: dict[str, bytes], quiet: bool = False, jobs: int = 1) -> PerlOutput:
    """Translate `files` (relative path -> bytes) with hipify-perl, on copies in a temporary folder: `jobs`
    processes at a time, each given a share of the files (hipify-perl translates each file on its own).
    `quiet` passes -quiet-warnings: the same translation without the unsupported-name scan, which costs
    hipify-perl some 13 ms per line."""
    flags = ["-inplace", "-print-stats"] + (["-quiet-warnings"] if quiet else [])
    with tempfile.TemporaryDirectory(prefix="hipmigrate-perl-") as tmp:
        root = Path(tmp)
        for rel, data in files.items():
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_bytes(data)
        shares = groups(files, jobs)
        with ThreadPoolExecutor(max_workers=len(shares) or 1) as pool:
            outputs = list(pool.map(lambda share: _run_share(tool, root, flags, share), shares))
        data = {rel: (root / rel).read_bytes() for rel in sorted(files)}
    findings: dict[str, list[Finding]] = {rel: [] for rel in data}
    converted: dict[str, dict[str, int]] = {rel: {} for rel in data}
    for text in outputs:
        _read_output(text, findings, converted)
    return PerlOutput(data, findings, converted)


def _run_share(tool: Path, root: Path, flags: list[str], rels: list[str]) -> str:
    try:
        proc = subprocess.run(["perl", str(tool), *flags, *rels], cwd=root, capture_output=True, timeout=3600)
    except (OSError, subprocess.SubprocessError) as exc:
        raise EngineError(f"{tool}: cannot run: {exc}") from exc
    if proc.returncode != 0:
        raise EngineError(f"{tool} exited with {proc.returncode}: {proc.stderr.decode(errors='replace')[-2000:]}")
    return (proc.stdout + proc.stderr).decode("utf-8", "replace")


def _read_output(text: str, findings: dict[str, list[Finding]], converted: dict[str, dict[str, int]]) -> None:
    """One process's warnings become ENG001 findings, its per-file statistics the conversion counts."""
    current = None
    for line in text.splitlines():
        m = WARNING.match(line)
        if m and m.group(1) in findings:
            path, lineno, message = m.group(1), int(m.group(2)), m.group(3)
            findings[path].append(Finding("ENG001", RuleKind.ENGINE, Severity.WARNING, f"hipify-perl: {message}",
                                          Span(path, 0, 0, lineno, 1), matched=message))
            continue
        m = FILE_STATS.match(line)
        if m:
            current = m.group(1) if m.group(1) in converted else None
            continue
        m = CONVERTED.match(line)
        if m and current:
            key = f"{m.group(1)} => {m.group(2)}"
            converted[current][key] = converted[current].get(key, 0) + int(m.group(3))
