"""glibc's malloc kept from growing its heap around large blocks that come and go.

glibc serves a block above its mmap threshold with its own mapping, given back when freed, and raises the threshold to
the size of each such block freed (up to 32 MB). After a few large blocks come and go (a block of findings being
packed, an array growing), the next ones come from the heap, and the small long-lived blocks placed after them keep the
heap from shrinking: migrating a generated 5 MB Makefile peaked at 5.1 times its size, and at 3.6 with the threshold
held at 128 KB. `hold_mmap_threshold` holds it there (mallopt's M_MMAP_THRESHOLD, which also stops the raising). Where
the C library is not glibc, nothing is done.
"""
from __future__ import annotations

import ctypes

M_MMAP_THRESHOLD = -3  # glibc's malloc.h
THRESHOLD = 128 * 1024  # glibc's own starting value


def hold_mmap_threshold(size: int = THRESHOLD) -> bool:
    """Hold glibc's mmap threshold at `size`; whether it was done."""
    try:
        libc = ctypes.CDLL(None)
    except OSError:
        return False
    if not hasattr(libc, "gnu_get_libc_version"):  # not glibc: its mallopt may not know the setting
        return False
    return libc.mallopt(M_MMAP_THRESHOLD, size) == 1
