"""hipify-perl as its users run it, the baseline of the real-code harness: the tree copied, then
`hipify-perl -inplace -quiet-warnings` over every C++ file, split over the worker count.

hipmigrate's own `--engine hipify-perl` (the harness's `hipmigrate-perl`) runs hipify-perl with its warnings and
statistics on, and then hipmigrate's post-rules; on this project's shared machine that took over 7 minutes for a
third of cuda-samples' 172 files, against seconds for the plain run.
"""
from __future__ import annotations

import fnmatch
import shutil
import subprocess
from pathlib import Path

HIPIFY_PERL = Path("/opt/hipmigrate/toolchain/bin/hipify-perl")
CPP = {".cu", ".cuh", ".h", ".hh", ".hpp", ".hxx", ".c", ".cc", ".cpp", ".cxx", ".inl", ".inc"}


def excluded(rel: str, patterns) -> bool:
    """Whether a forward-slash path falls under one of the gitignore-style patterns: `dir/` (a folder anywhere, or
    from the root when it has a slash inside), `*-hip/` (a folder name glob), `*.ext` (a file name glob)."""
    parts = rel.split("/")
    for pattern in patterns:
        folder = pattern.endswith("/")
        body = pattern.rstrip("/").lstrip("/")
        if "/" in body:  # anchored at the root
            n = body.count("/") + 1
            if fnmatch.fnmatchcase("/".join(parts[:n]), body) and (len(parts) > n or not folder):
                return True
            continue
        names = parts[:-1] if folder else parts
        if any(fnmatch.fnmatchcase(name, body) for name in names):
            return True
    return False


def hipify(src: Path, out: Path, exclude, jobs: int) -> tuple[int, str]:
    """src copied to out (what `exclude` names left out) and translated in place; (exit status, last stderr)."""
    if out.exists():
        shutil.rmtree(out)
    files = []
    for path in sorted(src.rglob("*")):
        rel = path.relative_to(src).as_posix()
        if path.is_dir() or path.is_symlink() or excluded(rel, exclude):
            continue
        target = out / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, target)
        if path.suffix.lower() in CPP:
            files.append(rel)
    batches = [files[i::jobs] for i in range(jobs) if files[i::jobs]]
    procs = [subprocess.Popen([str(HIPIFY_PERL), "-inplace", "-quiet-warnings", *batch], cwd=out,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True) for batch in batches]
    status, errors = 0, ""
    for proc in procs:
        _, err = proc.communicate()
        status = status or proc.returncode
        errors = err[-2000:] if err.strip() else errors
    for backup in out.rglob("*.prehip"):
        backup.unlink()
    return status, errors
