"""glibc's mmap threshold held (migrate/heap.py): these machines run glibc, so it must be done here, and every run
does it (rewrite.tuned)."""
import ctypes
import platform

import pytest

from migrate import heap
from migrate.stages import rewrite


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="glibc's mallopt only")
def test_the_mmap_threshold_is_held_on_glibc_and_by_every_run(monkeypatch):
    assert heap.hold_mmap_threshold() is True
    held = []
    monkeypatch.setattr(heap, "hold_mmap_threshold", lambda: held.append(True) or True)
    with rewrite.tuned():
        pass
    assert held == [True]
    assert ctypes.CDLL(None).mallopt(heap.M_MMAP_THRESHOLD, heap.THRESHOLD) == 1

