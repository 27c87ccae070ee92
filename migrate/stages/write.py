"""Writing results: a new output tree (staged, then moved into place), one output file, or standard output
(`--in-place` is migrate/stages/in_place.py). Nothing is written outside the destination.

A new DST is staged beside it (`.DST.partial-*`) and renamed into place in one step. An existing empty DST is never
renamed or removed (it may be a mount point, or have an owner, mode or ACL of its own): the tree is staged inside it
(`DST/.hipmigrate.partial-*`) and its entries are moved up one by one, moved back if anything stops the move.

Modes: each output file and folder gets the mode of its source; an existing empty DST keeps its own; what hipmigrate
adds (its .hipmigrate/ state, a new DST) gets 0666/0777 less the umask.

A source file that vanished before it was copied is left out, with INP012 on it (migrate/stages/late.py). An error
writing the output (ENOSPC, EACCES, EROFS, ...) removes the staged tree and is one line naming the path
(migrate.errors.OutputError, exit status 3). Interrupts (migrate/interrupt.py): the staged tree is removed and DST
left as it was.
"""
from __future__ import annotations

import os
import shutil
import stat
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, Iterable, Iterator

from migrate.errors import UsageError, output_error
from migrate.files import atomic_copy, atomic_write, new_folder_mode
from migrate.interrupt import Interrupted
from migrate.model import FileResult, FileStatus, Finding, MigrationResult
from migrate.stages.late import unreadable, vanished, with_findings
from migrate.stages.scan import Inventory, copied_link

CHUNK = 1 << 20
STAGED = ".hipmigrate.partial-"  # the staging folder inside an existing empty DST


def check_destination(source: Path, out: Path) -> None:
    src, dst = source.resolve(), out.resolve()
    if dst == src or src in dst.parents:
        raise UsageError(f"{out}: the output folder is inside the source tree {source}; choose a folder outside it")
    if dst in src.parents:
        raise UsageError(f"{out}: the output folder contains the source tree {source}; choose another folder")
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        if out.is_dir() and all(p.name.startswith(STAGED) for p in out.iterdir()):
            raise UsageError(f"{out}: holds only {STAGED}* folders, left by a run that was killed before it could "
                             "remove them (or being written by a run now): remove them once no hipmigrate run is "
                             "writing there, then run again")
        raise UsageError(f"{out}: exists and is not an empty folder; give a new or empty folder with --out")
    _check_parent(out, "DST")


def _check_parent(out: Path, what: str) -> None:
    above = next((p for p in out.absolute().parents if p.exists()), None)
    if above is not None and not above.is_dir():
        raise UsageError(f"{out}: {above} is a file, not a folder; give a {what} whose parent is a folder")


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
    _check_parent(out, "file")


@dataclass
class Staged:
    """The output tree being built: `result` has the files that vanished before their copy marked (INP012); the
    caller sets `extra`, hipmigrate's own files (the .hipmigrate/ state), each as the pieces of its bytes."""
    folder: Path
    result: MigrationResult
    extra: dict[str, Iterable[bytes]] = field(default_factory=dict)


@contextmanager
def staged_tree(inventory: Inventory, result: MigrationResult, out: Path) -> Iterator[Staged]:
    """Build the whole output in a staging folder, hand it to the block (which adds the state), then move it into
    place: all of it or, on an error or an interrupt, nothing."""
    check_destination(inventory.root, out)
    existed = out.exists()
    left = f"{out} was left as it was (the staged copy was removed)" if existed else \
        f"{out} was not created (the staged copy was removed)"
    staging = None
    try:
        if not existed:
            out.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=STAGED if existed else f".{out.name}.partial-",
                                        dir=out if existed else out.parent))
        if not existed:
            os.chmod(staging, new_folder_mode())
        staged = Staged(staging, with_findings(result, _copy_files(inventory, result, staging)))
        yield staged
        for rel, pieces in staged.extra.items():
            (staging / rel).parent.mkdir(parents=True, exist_ok=True)
            with open(staging / rel, "wb") as fh:
                fh.writelines(pieces)
        if existed:
            _move_into(staging, out)
            staging.rmdir()
        else:
            os.rename(staging, out)
    except BaseException as exc:
        if staging is not None:
            _remove(staging)
        if isinstance(exc, Interrupted):
            exc.notes.append(left)
        elif isinstance(exc, OSError):
            raise output_error(exc, _shown(exc, staging, out), left) from None
        raise


def _copy_files(inventory: Inventory, result: MigrationResult, staging: Path) -> dict[str, Finding]:
    """Every output file into `staging`, then the source's folder modes; the files that vanished meanwhile."""
    by_path = {r.path: r for r in result.files}
    late: dict[str, Finding] = {}
    folders: set[str] = set()
    for f in inventory.files:
        if f.kind in ("special", "unreadable"):
            continue
        target = staging / f.rel
        target.parent.mkdir(parents=True, exist_ok=True)
        folders.update(_folders(f.rel))
        try:
            problem = _write_one(f, by_path[f.rel], target, inventory.root)
        except OSError as exc:
            if exc.filename is None:  # a write's error names no file: it is this one
                exc.filename = str(target)
            raise
        if problem is not None:
            late[f.rel] = problem
    for rel in sorted(folders, key=lambda r: -r.count("/")):  # the source's modes, deepest first
        mode = _source_mode(inventory.root / rel)
        if mode is not None:
            os.chmod(staging / rel, mode)
    return late


def _move_into(staging: Path, out: Path) -> None:
    """Move each entry of `staging` (inside the empty `out`) up into `out`; on any error, move them back."""
    moved: list[str] = []
    try:
        for name in sorted(os.listdir(staging)):
            if os.path.lexists(out / name):
                raise UsageError(f"{out / name} appeared while the run was in progress; {out} must stay empty "
                                 "until hipmigrate has written it")
            os.rename(staging / name, out / name)
            moved.append(name)
    except BaseException:
        for name in reversed(moved):
            os.rename(out / name, staging / name)
        raise


def _shown(exc: OSError, staging: Path | None, out: Path) -> Path:
    """The output path an OSError met: within the staging folder, the path it will have in `out`."""
    name = exc.filename
    if not isinstance(name, (str, bytes)) or staging is None:
        return out
    path = Path(os.fsdecode(name))
    try:
        return out / path.relative_to(staging)
    except ValueError:
        return out if path.name.startswith((f".{out.name}.partial-", STAGED)) else path


def _folders(rel: str) -> list[str]:
    parts = rel.split("/")[:-1]
    return ["/".join(parts[:i]) for i in range(1, len(parts) + 1)]


def _source_mode(path: Path) -> int | None:
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        return None  # vanished: the output folder keeps a new folder's mode


def _write_one(f, r: FileResult, target: Path, root: Path) -> Finding | None:
    """Write one output file; a finding when its source vanished before it could be, or cannot be read (nothing
    written)."""
    if any(x.code == "INP012" for x in r.findings):
        return None  # it vanished before it was read: its finding says so
    if f.kind == "link":
        try:
            aim = copied_link(root, f.rel)[0]
        except FileNotFoundError:
            return vanished(f.rel, "vanished", "left out of the output")
        os.symlink(aim, target)
        return None
    if r.status is FileStatus.SKIPPED and os.path.isdir(f.path):
        return None  # not a file to copy (a folder it could not read): its finding says so
    mode = _source_mode(f.path)
    if mode is None:
        return vanished(f.rel, "vanished", "left out of the output")
    if r.new is not None:
        target.write_bytes(r.new)
        os.chmod(target, mode)
        return None
    problem = _copy(f.path, target)
    if problem is None:
        return None
    if isinstance(problem, FileNotFoundError):  # read (and perhaps skipped) before, gone now
        return vanished(f.rel, "vanished", "left out of the output")
    return None if r.status is FileStatus.SKIPPED else unreadable(f.rel, problem)  # its finding says why


def _copy(source: Path, target: Path) -> OSError | None:
    """Copy a file with its mode and times, reading and writing apart: an error reading the source is returned
    (nothing is left at `target`), one writing the output raised."""
    try:
        src = open(source, "rb")
    except OSError as exc:
        return exc
    with src:
        st = os.fstat(src.fileno())
        with open(target, "wb") as out:
            while True:
                try:
                    chunk = src.read(CHUNK)
                except OSError as exc:
                    problem = exc
                    break
                if not chunk:
                    problem = None
                    break
                out.write(chunk)
    if problem is not None:
        target.unlink()
        return problem
    os.chmod(target, stat.S_IMODE(st.st_mode))
    os.utime(target, ns=(st.st_atime_ns, st.st_mtime_ns))
    return None


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


# --- one file ---------------------------------------------------------------------------------------------------

def write_file(result: MigrationResult, source: Path, out: Path) -> None:
    """The migrated file, or the source copied as it is when it was not migrated (binary, over the size limit, an
    internal error); nothing when it could not be read (INP004 says so)."""
    r = result.files[0]
    mode = _source_mode(source)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        data = r.new if r.new is not None else r.old
        if data is not None:
            atomic_write(out, data, mode=mode)
        elif os.access(source, os.R_OK):
            atomic_copy(source, out)
    except Interrupted as exc:
        exc.notes.append(f"{out} was left as it was")
        raise
    except OSError as exc:
        raise output_error(exc, out, f"{out} was left as it was") from None


def write_stream(result: MigrationResult, source: Path, stream: BinaryIO) -> None:
    """--out -: the migrated file, or the source as it is when it was not migrated, on `stream`."""
    r = result.files[0]
    data = r.new if r.new is not None else r.old
    if data is not None:
        stream.write(data)
        return
    for chunk in _chunks(source):  # an error writing `stream` is the caller's (the output's), not the file's
        stream.write(chunk)


def _chunks(source: Path) -> Iterator[bytes]:
    """`source`'s bytes up to where it could be read (unreadable: INP004 says so)."""
    try:
        with open(source, "rb") as fh:
            while chunk := fh.read(CHUNK):
                yield chunk
    except OSError:
        return
