"""Per-file results of the rules, so that a warm `check` runs the rules only on files that changed.

An entry is keyed by the file's content hash, its path, the rule-set version (a hash of hipmigrate's version, its
own sources, the rules/ tree and the mapping packs in use) and the options that change results (target HIP
version, fix policy, the project's macros). It holds the file's findings and its migrated text.

Safe under concurrent runs: an entry is written to a temporary file in the same folder and renamed over its
name (`os.replace` is atomic), so a reader sees a whole entry or none; two runs writing the same entry write the
same bytes. Never trusted blindly: an entry carries its key and a checksum of its body; one that does not parse,
does not match, or fails the checksum is counted as corrupt, recomputed and rewritten.
"""
from __future__ import annotations

import base64
import hashlib
import json
import os
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from migrate import __version__
from migrate.files import atomic_write
from migrate.model import FileResult, FileStatus
from migrate.wire import finding_fields, finding_from_fields

FORMAT = 5
SETS = ("findings", "suppressed", "unused")  # a file's findings, reported or set apart
PACKAGE = Path(__file__).resolve().parent.parent  # migrate/


@dataclass
class Stats:
    hits: int = 0
    misses: int = 0
    corrupt: int = 0  # entries found unreadable or inconsistent, then rebuilt
    written: int = 0
    analysed: list[str] = field(default_factory=list)  # files the rules ran on in this run

    def as_dict(self) -> dict:
        return {"hits": self.hits, "misses": self.misses, "corrupt": self.corrupt, "written": self.written}


def _sources() -> list[tuple[str, Path]]:
    """(label, path) of every file whose content may change results."""
    from migrate.packs import rules_root

    def tree(label: str, root: Path, suffixes: tuple[str, ...]) -> list[tuple[str, Path]]:
        return sorted((f"{label}/{p.relative_to(root).as_posix()}", p) for p in root.rglob("*")
                      if p.suffix in suffixes and "__pycache__" not in p.parts)

    out = tree("migrate", PACKAGE, (".py",))
    rules = rules_root().resolve()
    out += tree("rules", rules, (".toml",) if rules.is_relative_to(PACKAGE) else (".py", ".toml"))
    packs = os.environ.get("HIPMIGRATE_PACKS")
    if packs and Path(packs).is_dir():
        out += tree("packs", Path(packs), (".toml", ".yaml", ".yml"))
    return out


@lru_cache(maxsize=4)
def ruleset_version(memo: Path | None = None) -> str:
    """A hash of hipmigrate's version, its sources, the rules/ tree and the packs ($HIPMIGRATE_PACKS too): any
    change there may change results, so it invalidates every entry. Hashing every byte takes a while, so the
    result is remembered in `memo` (a file in the cache folder) under the files' names, sizes and mtimes."""
    sources = _sources()
    stamp = hashlib.sha256(f"{__version__}\0{FORMAT}".encode())
    for label, path in sources:
        st = path.stat()
        stamp.update(f"{label}\0{st.st_size}\0{st.st_mtime_ns}\0".encode())
    key = stamp.hexdigest()
    known = recall(memo, key, "version")
    if known is not None:
        return known
    h = hashlib.sha256(f"hipmigrate {__version__} cache {FORMAT}\0".encode())
    for label, path in sources:
        h.update(label.encode() + b"\0" + path.read_bytes() + b"\0")
    version = h.hexdigest()[:32]
    remember(memo, key, "version", version)
    return version


def recall(memo: Path | None, stamp, field: str) -> str | None:
    """The string `field` that `memo` (a small JSON file) holds under `stamp`; None when there is no memo, it was
    written under another stamp, or it cannot be read."""
    if memo is None:
        return None
    try:
        doc = json.loads(memo.read_text())
        if doc.get("stamp") == stamp and isinstance(doc.get(field), str):
            return doc[field]
    except (OSError, ValueError, AttributeError):
        pass
    return None


def remember(memo: Path | None, stamp, field: str, value: str) -> None:
    """Write `memo` for `recall`; a memo that cannot be written is only a lost shortcut."""
    if memo is None:
        return
    try:
        memo.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(memo, json.dumps({"stamp": stamp, field: value}).encode(), durable=False)
    except OSError:
        pass


def _checksum(body: dict) -> str:
    return hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


class Cache:
    def __init__(self, folder: Path, salt: str):
        self.folder = folder
        self.salt = salt  # options that change results (see runner.options_key)
        self.version = ruleset_version(folder / "ruleset.json")
        self.stats = Stats()
        self._ready = False

    def key(self, rel: str, digest: str) -> str:
        key = f"{self.version}\0{self.salt}\0{rel}\0{digest}"
        return hashlib.sha256(key.encode("utf-8", "surrogateescape")).hexdigest()  # rel may hold a name's bytes

    def _path(self, key: str) -> Path:
        return self.folder / f"v{FORMAT}" / key[:2] / f"{key}.json"

    def get(self, rel: str, digest: str, data: bytes) -> FileResult | None:
        key = self.key(rel, digest)
        try:
            raw = self._path(key).read_bytes()
        except FileNotFoundError:
            self.stats.misses += 1
            return None
        except OSError:
            self.stats.corrupt += 1
            return None
        try:
            doc = json.loads(raw)
            body = doc["body"]
            if doc["key"] != key or doc["sum"] != _checksum(body) or body["path"] != rel:
                raise ValueError("entry does not match its key")
            new = data if body["new"] is None else base64.b64decode(body["new"], validate=True)
            findings, suppressed, unused = ([finding_from_fields(f) for f in body[k]] for k in SETS)
            result = FileResult(rel, FileStatus(body["status"]), tuple(findings), data, new, int(body["lines"]),
                                tuple(suppressed), tuple(unused))
        except (ValueError, KeyError, TypeError, IndexError, AttributeError):
            self.stats.corrupt += 1
            return None
        self.stats.hits += 1
        return result

    def put(self, result: FileResult, digest: str) -> None:
        key = self.key(result.path, digest)
        new = None if result.new is None or result.new == result.old else base64.b64encode(result.new).decode()
        body = {"path": result.path, "status": result.status.value, "lines": result.lines, "new": new,
                **{k: [finding_fields(f) for f in getattr(result, k)] for k in SETS}}
        doc = {"key": key, "sum": _checksum(body), "body": body}
        path = self._path(key)
        try:
            self._prepare()
            path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(path, json.dumps(doc, separators=(",", ":")).encode(), durable=False)
            self.stats.written += 1
        except OSError:
            pass  # a read-only or full disk makes the cache useless, never the check wrong

    def _prepare(self) -> None:
        if self._ready:
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        ignore = self.folder / ".gitignore"
        if not ignore.exists():
            try:
                ignore.write_text("# created by hipmigrate check: the cache is never committed\n*\n")
            except OSError:
                pass
        self._ready = True


def content_digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
