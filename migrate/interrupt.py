"""SIGINT and SIGTERM, handled alike: the signal becomes an `Interrupted` exception in the main thread, so that what
is being written is finished or rolled back by the code that writes it (temporary files and staging folders
removed), and the command exits 128 + the signal's number (130 for SIGINT, 143 for SIGTERM).

Worker processes ignore SIGINT (a terminal sends it to them too; the parent decides) and die on SIGTERM, which the
parent sends them when it is interrupted (`stop_pool`).
"""
from __future__ import annotations

import signal
import threading
from contextlib import contextmanager

SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Interrupted(BaseException):
    """A SIGINT or SIGTERM arrived. A BaseException, like KeyboardInterrupt, so `except Exception` lets it through.
    `notes` say what was left behind, added by the code it passed through on its way out."""

    def __init__(self, signum: int):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum
        self.notes: list[str] = []

    @property
    def name(self) -> str:
        return signal.Signals(self.signum).name

    @property
    def status(self) -> int:
        return 128 + self.signum


@contextmanager
def as_exception():
    """Within the block, the first SIGINT or SIGTERM raises Interrupted; later ones are ignored while the code
    that was interrupted cleans up. Outside the main thread this does nothing (signals only reach that one)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    fired: list[int] = []

    def handler(signum, frame):
        if fired:
            return
        fired.append(signum)
        raise Interrupted(signum)

    before = {s: signal.signal(s, handler) for s in SIGNALS}
    try:
        yield
        if fired:
            # the exception was raised inside code that swallows what it raises (a finalizer, logging's fork
            # hook: "Exception ignored in ..."), so the block went on to its end: the signal is honoured now
            raise Interrupted(fired[0])
    finally:
        for s, previous in before.items():
            signal.signal(s, previous)


@contextmanager
def noting(done: str | None):
    """An Interrupted that passes through the block says `done` (what was already written before it) on its way
    out; None adds nothing."""
    try:
        yield
    except Interrupted as exc:
        if done:
            exc.notes.append(done)
        raise


def in_worker() -> None:
    """A worker process's signal dispositions (its initializer): SIGINT ignored, SIGTERM deadly again (a forked
    worker inherits the parent's handler, which would make it survive the parent's terminate())."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def stop_pool(pool) -> None:
    """End a ProcessPoolExecutor's workers now, without finishing the work queued for them (an interrupt, or an
    error in the parent): terminate each worker, then shut the pool down."""
    processes = list((getattr(pool, "_processes", None) or {}).values())  # no public way before Python 3.14
    for p in processes:
        if p.is_alive():
            p.terminate()
    for p in processes:
        p.join(5)
    # A worker killed while it sent a result leaves half a message in the result pipe, and the pool's thread
    # waits for the rest; with every worker gone, closing this process's own end of that pipe ends the wait.
    writer = getattr(getattr(pool, "_result_queue", None), "_writer", None)
    if writer is not None:
        writer.close()
    pool.shutdown(wait=True)  # its thread fails the pending futures (cancelling them here would race it)
