"""`run --in-place`: migrate a clean git work tree itself, each file replaced whole, resumable after an interrupt.

The files it is about to replace are named, with their new content's digest, in a journal in the repository's git
folder, so that running the same command again resumes: the files already migrated are the only changes it accepts
in the work tree, and migrating them again changes nothing. Every git call goes through migrate/git.py.
"""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from migrate import git
from migrate.errors import UsageError, output_error
from migrate.files import atomic_write
from migrate.interrupt import Interrupted
from migrate.model import Finding, FileStatus, MigrationResult
from migrate.stages.scan import Inventory
from migrate.stages.late import vanished, with_findings

JOURNAL = "hipmigrate-in-place.json"  # in the repository's git folder: the files an --in-place run replaces


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


def write_in_place(inventory: Inventory, result: MigrationResult) -> MigrationResult:
    """Replace each migrated file, one at a time and each whole; the journal names them all first. A file that
    vanished or changed since it was read is not replaced (INP012 says so); the result says what was written."""
    changed = [r for r in result.files if r.status is FileStatus.MIGRATED and r.new is not None]
    journal = _journal(inventory.root)
    top = Path(_git(_folder(inventory.root), "rev-parse", "--show-toplevel"))
    done = _read_journal(journal)
    if not changed:
        if done and all(_holds_digest(top / rel, digest) for rel, digest in done.items()):
            _forget(journal)  # a rerun after an interrupt that came once every file it names was replaced
        return result
    for r in changed:
        done[os.path.relpath(os.path.realpath(inventory.root / r.path), os.path.realpath(top))] = _digest(r.new)
    try:
        atomic_write(journal, json.dumps({"version": 1, "files": done}, indent=1).encode())
    except Interrupted as exc:
        exc.notes.append(f"0 of {len(changed)} files were migrated in place; running the same command again "
                         "migrates them")
        raise
    except OSError as exc:
        raise output_error(exc, journal, "nothing was migrated") from None
    late: dict[str, Finding] = {}
    try:
        for r in changed:
            path = inventory.root / r.path
            if not _holds(path, r.old):  # vanished, or edited since it was read: the edit is the user's
                late[r.path] = vanished(r.path, "changed" if os.path.lexists(path) else "vanished", "not replaced")
                continue
            atomic_write(path, r.new)
        journal.unlink(missing_ok=True)
    except (Interrupted, OSError) as exc:
        written = sum(1 for r in changed if _holds(inventory.root / r.path, r.new))
        state = (f"{written} of {len(changed)} files were migrated in place, each whole; run the same command again "
                 "to finish (it resumes), or `git checkout -- .` to undo")
        if isinstance(exc, Interrupted):
            exc.notes.append(complete(written) if not journal.exists() else state)
            raise
        raise output_error(exc, inventory.root / changed[written].path if written < len(changed) else journal,
                           state) from None
    return with_findings(result, late)


def complete(count: int) -> str:
    """What an interrupt says once every file is migrated in place: the run is over, nothing to resume."""
    return (f"the run had finished: {count} files were migrated in place; review the change with `git diff`, undo "
            "it with `git checkout -- .`")


def _holds_digest(path: Path, digest: str) -> bool:
    try:
        return _digest(path.read_bytes()) == digest
    except OSError:
        return False


def _forget(journal: Path) -> None:
    try:
        journal.unlink(missing_ok=True)
    except OSError:
        pass  # kept: it names files that hold what it says, so a later run accepts them all the same


def _holds(path: Path, data: bytes) -> bool:
    try:
        return path.read_bytes() == data
    except OSError:
        return False
