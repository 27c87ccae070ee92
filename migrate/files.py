"""Writing one file whole or not at all (a leaf module: the bench and check paths import it without the engine)."""
from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path


def umask() -> int:
    """This process's umask, read without changing it (Linux); else set and restored at once."""
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def new_file_mode() -> int:
    """The mode a newly created file gets here: 0666 less the umask, as open() and cp give it."""
    return 0o666 & ~umask()


def new_folder_mode() -> int:
    return 0o777 & ~umask()


def atomic_write(path: Path, data: bytes, durable: bool = True, mode: int | None = None) -> None:
    """Write to a temporary file beside `path`, then rename it over `path`, so a reader sees the old file or the new
    one, never a part. It keeps the mode of the file it replaces; a new file gets `mode`, by default 0666 less the
    umask (the temporary file is made 0600). `durable` also flushes it to disk first (user files); caches and memos,
    rebuilt when lost, skip that."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            if durable:
                fh.flush()
                os.fsync(fh.fileno())
        if path.exists():
            shutil.copymode(path, tmp)
        else:
            os.chmod(tmp, new_file_mode() if mode is None else mode)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def atomic_copy(source: Path, path: Path) -> None:
    """Copy `source` over `path` whole or not at all, with `source`'s mode when `path` is new, in chunks (a file
    over the size limit is not read into memory)."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as out, open(source, "rb") as fh:
            shutil.copyfileobj(fh, out, 1 << 20)
            out.flush()
            os.fsync(out.fileno())
        shutil.copymode(path if path.exists() else source, tmp)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
