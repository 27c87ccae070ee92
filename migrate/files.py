"""Writing one file whole or not at all (a leaf module: the bench and check paths import it without the engine)."""
from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path


def atomic_write(path: Path, data: bytes, durable: bool = True) -> None:
    """Write to a temporary file beside `path`, then rename it over `path` (keeping its mode if it exists), so a
    reader sees the old file or the new one, never a part. `durable` also flushes it to disk first (user files);
    caches and memos, rebuilt when lost, skip that."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            if durable:
                fh.flush()
                os.fsync(fh.fileno())
        if path.exists():
            shutil.copymode(path, tmp)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
