"""The compile cache: what a compile printed, its exit status and its seconds, kept in the folder that the
environment variable HIPMIGRATE_COMPILE_CACHE names (no variable: no cache), so that the same compile asked again
is answered without running the compiler. `hipmigrate build` and the tests' compiles (tests/compile.py) share it.

An entry's key is a hash of: the compiler's resolved path and bytes, and the first lines of its `--version` (asked
once per compiler and process); its arguments in order, each path inside the tree root written relative to it and
the arguments the caller names (the object file) replaced by a label; the AMD target; the environment variables
that change what hipcc does (HIP_PLATFORM, HIP_CLANG_PATH, ROCM_PATH, CPATH, ...); and the path and bytes of the
unit and of every file it may include (migrate.verify.include_scan: conservative, so a header's change, or a new
file that an include could find, changes the key). A unit that includes a name given by a macro has no key: it is
compiled every time.

An entry is one JSON file, FOLDER/<2 hex>/<key>.json, written whole or not at all (a temporary file renamed over
it). Its output keeps paths inside the tree root relative to it, and a hit puts the current root back, so the same
tree migrated to another folder hits too. An entry that cannot be read, does not parse, or is not one of this
format for this key is a miss, never an error; a folder that cannot be written is no cache.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

from migrate.files import atomic_write
from migrate.verify import include_scan

ENV = "HIPMIGRATE_COMPILE_CACHE"
FORMAT = 1
ROOT_MARK = "<hipmigrate-root>"  # the tree root, in a kept argument or output
VERSION_LINES = 8  # `hipcc --version`: HIP, clang, target, ...; `nvcc --version`: its release is on line 4
ENV_NAMES = ("HIP_PLATFORM", "HIP_CLANG_PATH", "HIP_PATH", "ROCM_PATH", "HIP_DEVICE_LIB_PATH",
             "HIPCC_COMPILE_FLAGS_APPEND", "HIPCC_LINK_FLAGS_APPEND", *include_scan.PATH_VARIABLES)


@dataclass(frozen=True)
class Outcome:
    """What one compile left: all it printed (stdout, then stderr), its exit status, how long it ran."""

    output: str
    status: int
    seconds: float


def folder(env: Mapping[str, str] | None = None) -> Path | None:
    """The cache's folder, from HIPMIGRATE_COMPILE_CACHE; None when the variable is unset or empty."""
    value = (os.environ if env is None else env).get(ENV, "")
    return Path(value) if value else None


_versions: dict[str, str] = {}
_versions_lock = threading.Lock()


def identity(compiler: str) -> str:
    """The compiler's resolved path and a hash of its file (hipcc is a script: one edited is another compiler); a
    bare name is looked up on PATH."""
    resolved = os.path.realpath(compiler if os.sep in compiler else shutil.which(compiler) or compiler)
    try:
        with open(resolved, "rb") as fh:
            return f"{resolved}\0{hashlib.file_digest(fh, 'sha256').hexdigest()}"
    except OSError:
        return resolved


def version(compiler: str, env: Mapping[str, str] | None = None) -> str:
    """The first lines of `compiler --version`, asked once per compiler (its `identity`) in this process ("" when it
    cannot be run)."""
    resolved = identity(compiler)
    with _versions_lock:
        if resolved not in _versions:
            try:
                proc = subprocess.run([compiler, "--version"], capture_output=True, text=True, timeout=120,
                                      env=None if env is None else dict(env), stdin=subprocess.DEVNULL)
                lines = [line.strip() for line in (proc.stdout + proc.stderr).splitlines() if line.strip()]
            except (OSError, subprocess.SubprocessError):
                lines = []
            _versions[resolved] = "\n".join(lines[:VERSION_LINES])
        return _versions[resolved]


def relative(text: str, root: Path) -> str:
    """`text` with each mention of the tree root (followed by a slash or nothing) written as ROOT_MARK."""
    return re.sub(re.escape(str(root)) + r"(?=/|$)", ROOT_MARK, text, flags=re.MULTILINE)


def key(compiler: str, version_line: str, args: Sequence[str], target: str, unit: Path, root: Path,
        cwd: Path | None = None, env: Mapping[str, str] | None = None, places: Mapping[str, str] | None = None,
        memo: dict | None = None) -> str | None:
    """The key of compiling `unit` with `compiler args` (all the arguments after the compiler's name) for `target`,
    run in `cwd` (relative include folders are found there) with `env`; `places` maps an argument to the label it is
    keyed by (the object file, whose temporary folder changes). None: the unit cannot be keyed (an include given by a
    macro, a file that vanished while read): compile it. `memo` (a dict kept by the caller for one run) saves reading
    the environment's headers again."""
    env = os.environ if env is None else env
    cwd = cwd or Path.cwd()
    places = places or {}
    scanned = include_scan.scan(unit, args, cwd, env, root, memo)
    if scanned.computed:
        return None
    digest = hashlib.sha256()

    def part(label: str, data: bytes | str) -> None:
        data = data.encode("utf-8", "surrogateescape") if isinstance(data, str) else data
        digest.update(f"{label}:{len(data)}:".encode() + data)

    part("format", str(FORMAT))
    part("compiler", identity(compiler))
    part("version", version_line)
    part("target", target)
    for arg in args:
        part("arg", places.get(arg) or relative(arg, root))
    for name in ENV_NAMES:
        part("env", f"{name}={relative(env.get(name, ''), root)}" if name in env else name)
    for name, path in sorted((relative(str(p), root), p) for p in scanned.files):
        try:
            data = path.read_bytes()
        except OSError:
            return None
        part("file", name)
        part("bytes", hashlib.sha256(data).digest())
    return digest.hexdigest()


def entry(store: Path, compile_key: str) -> Path:
    return store / compile_key[:2] / f"{compile_key}.json"


def load(store: Path, compile_key: str, root: Path) -> Outcome | None:
    """The outcome kept under `compile_key`, its paths put back under `root`; None for a miss (no entry, or one that
    cannot be read or is not a whole entry of this format and key)."""
    try:
        doc = json.loads(entry(store, compile_key).read_bytes())
    except (OSError, ValueError):
        return None
    if not (isinstance(doc, dict) and doc.get("format") == FORMAT and doc.get("key") == compile_key):
        return None
    output, status, seconds = doc.get("output"), doc.get("status"), doc.get("seconds")
    if not (isinstance(output, str) and type(status) is int and type(seconds) in (int, float)):
        return None
    return Outcome(output.replace(ROOT_MARK, str(root)), status, float(seconds))


def save(store: Path, compile_key: str, outcome: Outcome, root: Path) -> bool:
    """Keep `outcome` under `compile_key`, whole or not at all; False when the folder cannot be written."""
    doc = {"format": FORMAT, "key": compile_key, "output": relative(outcome.output, root), "status": outcome.status,
           "seconds": round(outcome.seconds, 3)}
    path = entry(store, compile_key)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, json.dumps(doc).encode("utf-8", "surrogateescape"), durable=False)
    except OSError:
        return False
    return True
