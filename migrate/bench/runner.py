"""Running one command once: through the launcher prefix (a scheduler such as `srun ...`) when given, with a
timeout that kills the command's whole process group, and reading its figure. Every outcome becomes a `Run`
with a status; nothing is dropped."""
from __future__ import annotations

import json
import os
import re
import shlex
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from migrate.bench.config import Figure

TAIL = 600  # characters of output kept with each run


class Status:
    OK = "ok"
    FAILED = "failed"  # non-zero exit status, or stdout did not match `expect`
    TIMEOUT = "timeout"
    NO_FIGURE = "no-figure"  # exit status 0 but the regex or JSON field found nothing numeric
    ERROR = "error"  # the command could not be started


@dataclass(frozen=True)
class Run:
    index: int  # 0-based over warm-ups and measured runs together
    warmup: bool
    status: str
    exit_code: int | None
    seconds: float  # wall time of the process, launcher included
    value: float | None  # the figure; None unless status is ok
    message: str | None  # why a run is not ok
    output_tail: str  # the end of stdout and stderr

    def as_dict(self) -> dict:
        return {"index": self.index, "warmup": self.warmup, "status": self.status, "exit_code": self.exit_code,
                "seconds": round(self.seconds, 6), "value": self.value, "message": self.message,
                "output_tail": self.output_tail}


def argv(command: str | tuple[str, ...], launcher: str | None) -> list[str]:
    """The process to start: the launcher's words, then the command (a string runs through /bin/sh -c)."""
    base = ["/bin/sh", "-c", command] if isinstance(command, str) else list(command)
    return (shlex.split(launcher) if launcher else []) + base


@dataclass(frozen=True)
class Outcome:
    exit_code: int | None
    seconds: float
    stdout: str
    stderr: str
    timed_out: bool
    error: str | None


def execute(args: list[str], cwd: Path, env: dict[str, str], timeout: float) -> Outcome:
    """Start `args` in a new session, wait at most `timeout` seconds, then kill its process group."""
    start = time.perf_counter()
    try:
        proc = subprocess.Popen(args, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, start_new_session=True)
    except OSError as exc:
        return Outcome(None, time.perf_counter() - start, "", "", False, f"cannot start {args[0]!r}: {exc.strerror or exc}")
    try:
        out, err = proc.communicate(timeout=timeout)
        timed_out = False
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, err = proc.communicate()
        timed_out = True
    seconds = round(time.perf_counter() - start, 6)  # microseconds: the figure of a wall-time benchmark
    return Outcome(None if timed_out else proc.returncode, seconds, out.decode(errors="replace"),
                   err.decode(errors="replace"), timed_out, None)


def run_once(index: int, warmup: bool, args: list[str], cwd: Path, env: dict[str, str], timeout: float,
             figure: Figure, expect: str | None) -> Run:
    o = execute(args, cwd, env, timeout)
    tail = _tail(o.stdout, o.stderr)

    def make(status: str, value: float | None = None, message: str | None = None) -> Run:
        return Run(index, warmup, status, o.exit_code, o.seconds, value, message, tail)

    if o.error is not None:
        return make(Status.ERROR, message=o.error)
    if o.timed_out:
        return make(Status.TIMEOUT, message=f"killed after the timeout of {timeout:g} s")
    if o.exit_code != 0:
        return make(Status.FAILED, message=f"exit status {o.exit_code}")
    if expect is not None and not re.search(expect, o.stdout, re.M):
        return make(Status.FAILED, message=f"stdout does not match expect {expect!r}")
    value, problem = read_figure(figure, o.stdout, o.seconds)
    if value is None:
        return make(Status.NO_FIGURE, message=problem)
    return make(Status.OK, value=value)


def read_figure(figure: Figure, stdout: str, seconds: float) -> tuple[float | None, str | None]:
    """(the figure, None), or (None, why not)."""
    if figure.kind == "wall":
        return seconds, None
    if figure.kind == "regex":
        m = re.search(figure.pattern or "", stdout, re.M)
        if m is None:
            return None, f"regex {figure.pattern!r} matches nothing in stdout"
        text = m.group(1) if m.re.groups else m.group(0)
        return _number(text, f"regex {figure.pattern!r} matched {text!r}, not a number")
    doc = _json_document(stdout)
    if doc is None:
        return None, "stdout holds no JSON document"
    value = doc
    for part in (figure.field or "").split("."):
        if isinstance(value, dict) and part in value:
            value = value[part]
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            return None, f"JSON field {figure.field!r} is not in stdout's document"
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        return None, f"JSON field {figure.field!r} is {json.dumps(value)[:60]}, not a number"
    return _number(str(value), f"JSON field {figure.field!r} is {value!r}, not a number")


def _number(text: str, problem: str) -> tuple[float | None, str | None]:
    try:
        value = float(text)
    except ValueError:
        return None, problem
    return (value, None) if value == value and abs(value) != float("inf") else (None, problem)


def _json_document(stdout: str):
    """All of stdout as JSON, else the last line that is a JSON object or list (programs print other lines)."""
    try:
        return json.loads(stdout)
    except ValueError:
        pass
    for line in reversed(stdout.splitlines()):
        if line.lstrip().startswith(("{", "[")):
            try:
                return json.loads(line)
            except ValueError:
                continue
    return None


def _tail(stdout: str, stderr: str) -> str:
    text = stdout + (("\n" if stdout and not stdout.endswith("\n") else "") + stderr if stderr else "")
    return text[-TAIL:]
