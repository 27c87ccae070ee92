"""Writing results: a new output tree (staged, then renamed into place), one output file, or the work
tree itself (`--in-place`, each file replaced atomically). Nothing is written outside the destination.

Modes: each output file and folder gets the mode of its source (an existing empty DST keeps its own, and its group);
what hipmigrate adds (its .hipmigrate/ state, a new DST) gets 0666/0777 less the umask.

Interrupts (migrate/interrupt.py): a staged tree is removed and DST left as it was; `--in-place` records the files it
is about to replace in a journal in the git folder, so that running the same command again resumes (the files
already migrated are the only changes it accepts in the work tree, and migrating them again changes nothing).
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import stat
import tempfile
from pathlib import Path
from typing import BinaryIO, Iterable

from migrate import git
from migrate.files import atomic_copy, atomic_write, new_folder_mode
from migrate.interrupt import Interrupted
from migrate.model import FileResult, FileStatus, MigrationResult
from migrate.errors import UsageError
from migrate.stages.scan import Inventory, copied_link

JOURNAL = "hipmigrate-in-place.json"  # in the repository's git folder: the files an --in-place run replaces


def check_destination(source: Path, out: Path) -> None:
    src, dst = source.resolve(), out.resolve()
    if dst == src or src in dst.parents:
        raise UsageError(f"{out}: the output folder is inside the source tree {source}; choose a folder outside it")
    if dst in src.parents:
        raise UsageError(f"{out}: the output folder contains the source tree {source}; choose another folder")
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise UsageError(f"{out}: exists and is not an empty folder; give a new or empty folder with --out")


def check_file_destination(source: Path, out: Path, force: bool) -> None:
    """--out for one source file: never the source itself, never a folder, an existing file only with --force."""
    if out.exists() and out.resolve() == source.resolve():
        raise UsageError(f"{out}: is the source file itself; give another file with --out, or migrate it where it "
                         "stands with --in-place (in a clean git work tree, so that the change can be reviewed and "
                         "undone)")
    if out.is_dir():
        raise UsageError(f"{out}: is a folder; for a single source file, --out names the output file")
    if out.exists() and not force:
        raise UsageError(f"{out}: exists; give a new file with --out, or --force to replace it")


def write_tree(inventory: Inventory, result: MigrationResult, out: Path,
               extra: dict[str, Iterable[bytes]] | None = None) -> None:
    """Build the whole output in a staging folder beside `out`, then move it into place in one rename.
    `extra` adds files of hipmigrate's own (the .hipmigrate/ state), each as the pieces of its bytes."""
    check_destination(inventory.root, out)
    out.parent.mkdir(parents=True, exist_ok=True)
    existed = out.exists()
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.partial-", dir=out.parent))
    moved = False
    try:
        _take_over(staging, out if existed else None)
        by_path = {r.path: r for r in result.files}
        folders: set[str] = set()
        for f in inventory.files:
            if f.kind in ("special", "unreadable"):
                continue
            target = staging / f.rel
            target.parent.mkdir(parents=True, exist_ok=True)
            folders.update(_folders(f.rel))
            _write_one(f, by_path[f.rel], target, inventory.root)
        for rel, pieces in (extra or {}).items():
            (staging / rel).parent.mkdir(parents=True, exist_ok=True)
            with open(staging / rel, "wb") as fh:  # in the staging folder: moved into place whole, or removed
                fh.writelines(pieces)
        for rel in sorted(folders, key=lambda r: -r.count("/")):  # the source's modes, deepest first
            shutil.copymode(inventory.root / rel, staging / rel)
        if existed:
            out.rmdir()
        os.rename(staging, out)
        moved = True
    except BaseException as exc:
        _remove(staging)
        if existed and not out.exists():  # interrupted between the two renames
            out.mkdir()
        if isinstance(exc, Interrupted) and not moved:
            exc.notes.append(f"{out} was left as it was (the staged copy was removed)" if existed
                             else f"{out} was not created (the staged copy was removed)")
        raise


def _take_over(staging: Path, existing: Path | None) -> None:
    """The staging folder gets the mode (and group) of the empty DST it replaces, else a new folder's mode."""
    if existing is None:
        os.chmod(staging, new_folder_mode())
        return
    st = existing.stat()
    try:
        os.chown(staging, -1, st.st_gid)
    except OSError:
        pass  # not a member of that group: the mode is kept all the same
    os.chmod(staging, stat.S_IMODE(st.st_mode))


def _folders(rel: str) -> list[str]:
    parts = rel.split("/")[:-1]
    return ["/".join(parts[:i]) for i in range(1, len(parts) + 1)]


def _write_one(f, r: FileResult, target: Path, root: Path) -> None:
    if f.kind == "link":
        os.symlink(copied_link(root, f.rel)[0], target)
    elif r.new is not None:
        target.write_bytes(r.new)
        shutil.copymode(f.path, target)
    elif r.status is not FileStatus.SKIPPED or f.path.is_file():
        try:
            shutil.copy2(f.path, target)
        except OSError:
            pass  # unreadable: already reported by the rewrite stage


def _remove(folder: Path) -> None:
    """Remove a staged tree, read-only folders included."""
    def writable(func, path, _exc):
        try:
            os.chmod(os.path.dirname(path), 0o700)
            os.chmod(path, 0o700)
            func(path)
        except OSError:
            pass
    shutil.rmtree(folder, onerror=writable)


# --- --in-place -------------------------------------------------------------------------------------------------

def _git(root: Path, *args: str) -> str:
    """The output of a git command that cannot fail once check_clean_git has passed (one line, stripped)."""
    try:
        proc = git.run(root, *args)
    except git.Unavailable as exc:
        raise UsageError(f"--in-place needs git: {exc}") from None
    if proc.returncode != 0:
        message = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        raise UsageError(f"{root}: git {args[0]} failed: {message[-1] if message else 'no message'}")
    return proc.stdout.decode("utf-8", "surrogateescape").strip()


def _folder(root: Path) -> Path:
    return root if root.is_dir() else root.parent


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _journal(root: Path) -> Path:
    return Path(_git(_folder(root), "rev-parse", "--absolute-git-dir")) / JOURNAL


def _read_journal(path: Path) -> dict[str, str]:
    try:
        files = json.loads(path.read_text())["files"]
    except (OSError, ValueError, KeyError, TypeError):
        return {}
    return files if isinstance(files, dict) else {}


def check_clean_git(root: Path) -> None:
    """--in-place only works on a clean git work tree, so that `git diff` shows the migration and
    `git checkout .` undoes it. The one change it accepts: files an interrupted --in-place run already migrated
    (recorded in its journal with their new content), so that running it again finishes the job."""
    folder = _folder(root)
    try:
        top = git.run(folder, "rev-parse", "--show-toplevel", timeout=30)
        spec = "." if root.is_dir() else root.name
        status = git.run(folder, "status", "--porcelain", "-z", "--", spec).stdout if top.returncode == 0 else b""
    except git.Unavailable as exc:
        raise UsageError(f"--in-place needs git: {exc}") from None
    if git.refused(top):
        raise UsageError(git.trust_hint(folder))
    if top.returncode != 0:
        raise UsageError(f"{root}: --in-place needs a git work tree (to show and undo the change); use --out DST")
    dirty = _porcelain_paths(status)
    if not dirty:
        return
    done = _read_journal(_journal(root))
    top_dir = Path(top.stdout.decode("utf-8", "surrogateescape").strip())
    for rel in dirty:
        try:
            current = _digest((top_dir / rel).read_bytes())
        except OSError:
            current = None
        if done.get(rel) != current:
            resumable = " (an interrupted --in-place run left other files migrated: run it again once this change " \
                        "is committed or undone)" if done else ""
            raise UsageError(f"{root}: the git work tree has uncommitted changes (for example {rel}); commit or "
                             f"stash them first, so the migration can be reviewed and undone{resumable}")


def _porcelain_paths(status: bytes) -> list[str]:
    """The paths of `git status --porcelain -z` (relative to the repository's top; a rename's old path skipped)."""
    entries = status.split(b"\0")
    paths, i = [], 0
    while i < len(entries):
        entry = entries[i]
        i += 1
        if len(entry) < 4:
            continue
        paths.append(entry[3:].decode("utf-8", "surrogateescape"))
        if entry[:1] in (b"R", b"C"):
            i += 1  # the rename's source follows
    return paths


def write_in_place(inventory: Inventory, result: MigrationResult) -> None:
    """Replace each migrated file, one at a time and each whole; the journal names them all first."""
    changed = [r for r in result.files if r.status is FileStatus.MIGRATED and r.new is not None]
    if not changed:
        return
    journal = _journal(inventory.root)
    top = Path(_git(_folder(inventory.root), "rev-parse", "--show-toplevel"))
    done = _read_journal(journal)
    for r in changed:
        done[os.path.relpath(os.path.realpath(inventory.root / r.path), os.path.realpath(top))] = _digest(r.new)
    atomic_write(journal, json.dumps({"version": 1, "files": done}, indent=1).encode())
    try:
        for r in changed:
            atomic_write(inventory.root / r.path, r.new)
    except Interrupted as exc:
        written = sum(1 for r in changed if _holds(inventory.root / r.path, r.new))
        exc.notes.append(f"{written} of {len(changed)} files were migrated in place, each whole; run the same command "
                         "again to finish (it resumes), or `git checkout -- .` to undo")
        raise
    journal.unlink(missing_ok=True)


def _holds(path: Path, data: bytes) -> bool:
    try:
        return path.read_bytes() == data
    except OSError:
        return False


# --- one file ---------------------------------------------------------------------------------------------------

def write_file(result: MigrationResult, source: Path, out: Path) -> None:
    """The migrated file, or the source copied as it is when it was not migrated (binary, over the size limit, an
    internal error); nothing when it could not be read (INP004 says so)."""
    r = result.files[0]
    out.parent.mkdir(parents=True, exist_ok=True)
    mode = stat.S_IMODE(source.stat().st_mode)
    try:
        data = r.new if r.new is not None else r.old
        if data is not None:
            atomic_write(out, data, mode=mode)
        elif os.access(source, os.R_OK):
            atomic_copy(source, out)
    except Interrupted as exc:
        exc.notes.append(f"{out} was left as it was")
        raise


def write_stream(result: MigrationResult, source: Path, stream: BinaryIO) -> None:
    """--out -: the migrated file, or the source as it is when it was not migrated, on `stream`."""
    r = result.files[0]
    data = r.new if r.new is not None else r.old
    if data is not None:
        stream.write(data)
        return
    try:
        with open(source, "rb") as fh:
            shutil.copyfileobj(fh, stream, 1 << 20)
    except OSError:
        pass  # unreadable: INP004 says so
