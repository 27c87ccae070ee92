"""Writing results: a new output tree (staged, then renamed into place), one output file, or the work
tree itself (`--in-place`, each file replaced atomically). Nothing is written outside the destination."""
from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from migrate.files import atomic_write
from migrate.model import FileStatus, MigrationResult
from migrate.stages.scan import Inventory, UsageError


def check_destination(source: Path, out: Path) -> None:
    src, dst = source.resolve(), out.resolve()
    if dst == src or src in dst.parents:
        raise UsageError(f"{out}: the output folder is inside the source tree {source}; choose a folder outside it")
    if dst in src.parents:
        raise UsageError(f"{out}: the output folder contains the source tree {source}; choose another folder")
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise UsageError(f"{out}: exists and is not an empty folder; give a new or empty folder with --out")


def write_tree(inventory: Inventory, result: MigrationResult, out: Path, extra: dict[str, bytes] | None = None) -> None:
    """Build the whole output in a staging folder beside `out`, then move it into place in one rename.
    `extra` adds files of hipmigrate's own (the .hipmigrate/ state)."""
    check_destination(inventory.root, out)
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.partial-", dir=out.parent))
    try:
        by_path = {r.path: r for r in result.files}
        for f in inventory.files:
            if f.kind == "special":
                continue
            target = staging / f.rel
            target.parent.mkdir(parents=True, exist_ok=True)
            r = by_path[f.rel]
            if f.kind == "link":
                os.symlink(os.readlink(f.path), target)
            elif r.new is not None:
                target.write_bytes(r.new)
                shutil.copymode(f.path, target)
            elif r.status is not FileStatus.SKIPPED or f.path.is_file():
                try:
                    shutil.copy2(f.path, target)
                except OSError:
                    pass  # unreadable: already reported by the rewrite stage
        for rel, data in (extra or {}).items():
            (staging / rel).parent.mkdir(parents=True, exist_ok=True)
            (staging / rel).write_bytes(data)
        if out.exists():
            out.rmdir()
        os.rename(staging, out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def check_clean_git(root: Path) -> None:
    """--in-place only works on a clean git work tree, so that `git diff` shows the migration and
    `git checkout .` undoes it."""
    try:
        top = subprocess.run(["git", "-C", str(root), "rev-parse", "--show-toplevel"], capture_output=True,
                             text=True, timeout=30)
    except OSError as exc:
        raise UsageError(f"--in-place needs git: {exc}") from exc
    if top.returncode != 0:
        raise UsageError(f"{root}: --in-place needs a git work tree (to show and undo the change); use --out DST")
    status = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--", "."], capture_output=True,
                            text=True, timeout=120)
    if status.stdout.strip():
        first = status.stdout.splitlines()[0][3:]
        raise UsageError(f"{root}: the git work tree has uncommitted changes (for example {first}); commit or "
                         "stash them first, so the migration can be reviewed and undone")


def write_in_place(inventory: Inventory, result: MigrationResult) -> None:
    for r in result.files:
        if r.status is FileStatus.MIGRATED and r.new is not None:
            atomic_write(inventory.root / r.path, r.new)


def write_file(result: MigrationResult, out: Path) -> None:
    r = result.files[0]
    data = r.new if r.new is not None else r.old
    if data is None:
        return
    if out.exists() and out.is_dir():
        raise UsageError(f"{out}: is a folder; for a single source file, --out names the output file")
    out.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(out, data)
