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

from migrate.errors import UsageError
from migrate.model import Finding, RuleKind, Severity, Span
from migrate.toolchain import TOOLCHAIN

WARNING = re.compile(r"^\s*warning: (.+?):(\d+): (.*)$")
CONVERTED = re.compile(r"^\s+(\S+) => (\S+): (\d+)$")
FILE_STATS = re.compile(r"^\[HIPIFY\] info: file '(.+)' statistics:")
BOM = b"\xef\xbb\xbf"
ADDED_INCLUDE = re.compile(rb'#include "hip/hip_runtime\.h"\r?\n')  # what hipify-perl puts above a file with kernels
RUNTIME_INCLUDE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*[<"](?:hip/hip|cuda)_runtime(?:_api)?\.h[>"]', re.M)
DOUBLE_SYMBOL = re.compile(rb"HIP_SYMBOL\([ \t]*(HIP_SYMBOL[ \t]*\()")


class EngineError(UsageError):
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


def not_found() -> str:
    """Why find() found nothing, and what to do."""
    env = os.environ.get("HIPIFY_PERL")
    if env:
        return (f"HIPIFY_PERL={env} is not a file (so nothing else was searched): point it at hipify-perl, or unset it "
                f"to look on PATH, in $ROCM_PATH/bin (/opt/rocm/bin) and in {TOOLCHAIN}/bin")
    return (f"hipify-perl not found (looked on PATH, in $ROCM_PATH/bin (/opt/rocm/bin) and in {TOOLCHAIN}/bin): install "
            "it with scripts/install-toolchain, set HIPIFY_PERL to its path, or use --engine builtin")


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
            (root / rel).write_bytes(data[len(BOM):] if data.startswith(BOM) else data)
        shares = groups(files, jobs)
        running: list[subprocess.Popen] = []
        with ThreadPoolExecutor(max_workers=len(shares) or 1) as pool:
            try:
                outputs = list(pool.map(lambda share: _run_share(tool, root, flags, share, running), shares))
            except BaseException:  # interrupted, or one share failed: the other perl processes end now
                for proc in running:
                    proc.kill()
                raise
        data = {rel: settle(files[rel], (root / rel).read_bytes()) for rel in sorted(files)}
    findings: dict[str, list[Finding]] = {rel: [] for rel in data}
    converted: dict[str, dict[str, int]] = {rel: {} for rel in data}
    for text in outputs:
        _read_output(text, findings, converted)
    return PerlOutput(data, findings, converted)


def _run_share(tool: Path, root: Path, flags: list[str], rels: list[str], running: list[subprocess.Popen]) -> str:
    try:
        proc = subprocess.Popen(["perl", str(tool), *flags, *rels], cwd=root, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
    except OSError as exc:
        raise EngineError(f"{tool}: cannot run: {exc}") from exc
    running.append(proc)
    try:
        stdout, stderr = proc.communicate(timeout=3600)
    except subprocess.TimeoutExpired as exc:
        proc.kill()
        proc.communicate()
        raise EngineError(f"{tool}: still running after an hour on {len(rels)} file(s)") from exc
    if proc.returncode != 0:
        raise EngineError(f"{tool} exited with {proc.returncode}: {stderr.decode(errors='replace')[-2000:]}")
    return (stdout + stderr).decode("utf-8", "replace")


def settle(source: bytes, output: bytes) -> bytes:
    """hipify-perl's output of `source` made stable under a second run, its byte-order mark back in front: the
    `#include "hip/hip_runtime.h"` it puts above a file with kernels is dropped when the file includes the HIP
    runtime already (and ends in a CR in a file of CR line endings), and the HIP_SYMBOL() it wraps around a symbol
    already wrapped is taken off again."""
    added = ADDED_INCLUDE.match(output)
    if added and RUNTIME_INCLUDE.search(output, added.end()) \
            and len(RUNTIME_INCLUDE.findall(output)) > len(RUNTIME_INCLUDE.findall(source)):
        output = output[added.end():]
    if output.count(b"HIP_SYMBOL") > source.count(b"HIP_SYMBOL"):
        output = _unwrap_symbols(output)
    if b"\n" not in source and b"\r" in source:  # old Mac line endings: the line it added ends in a CR too
        output = output.replace(b"\n", b"\r")
    return BOM + output if source.startswith(BOM) else output


def _unwrap_symbols(data: bytes) -> bytes:
    """HIP_SYMBOL( HIP_SYMBOL(x) ) -> HIP_SYMBOL(x)."""
    pieces, pos = [], 0
    for m in DOUBLE_SYMBOL.finditer(data):
        if m.start() < pos:
            continue
        inner_open = m.end() - 1
        inner_close = _closing(data, inner_open)
        if inner_close is None:
            continue
        after = inner_close + 1
        while after < len(data) and data[after] in b" \t":
            after += 1
        if after >= len(data) or data[after] != ord(")"):
            continue
        pieces += [data[pos:m.start()], data[m.start(1):inner_close + 1]]
        pos = after + 1
    return b"".join(pieces) + data[pos:]


def _closing(data: bytes, opening: int) -> int | None:
    depth = 0
    for i in range(opening, min(len(data), opening + 4096)):
        if data[i] == ord("("):
            depth += 1
        elif data[i] == ord(")"):
            depth -= 1
            if depth == 0:
                return i
    return None


def _read_output(text: str, findings: dict[str, list[Finding]], converted: dict[str, dict[str, int]]) -> None:
    """One process's warnings become ENG001 findings, its per-file statistics the conversion counts."""
    current = None
    for line in text.splitlines():
        m = WARNING.match(line)
        if m and m.group(1) in findings:
            path, lineno, message = m.group(1), int(m.group(2)), m.group(3)
            findings[path].append(Finding("ENG001", RuleKind.ENGINE, Severity.ERROR, f"hipify-perl: {message}",
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
