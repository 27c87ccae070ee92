"""Mapping packs: load the TOML files of rules/mappings/, validate them, index them for the engine.

The format is documented in docs/packs.md. Validation is strict: a pack with an unknown key, a wrong
type or a CUDA name that another pack already maps is refused with a message naming the file.
"""
from __future__ import annotations

import importlib.util
import os
import re
import tomllib
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path

from migrate.errors import UsageError

KINDS = {"function", "type", "enum", "macro", "namespace"}
VERSION = re.compile(r"^\d+\.\d+$")
IDENT = re.compile(r"^[A-Za-z_]\w*$")
ROW_KEYS = {"hip": str, "kind": str, "since": str, "older": str, "older_drop_arg": int, "older_since": str}
HEADER_KEYS = {"hip": str, "since": str, "older": str}
PACK_KEYS = {"family": str, "title": str, "code": str, "generated": str, "inspected_from": str, "inspected": list}


class PackError(UsageError):
    """A mapping pack that does not follow docs/packs.md."""


@dataclass(frozen=True)
class Mapping:
    cuda: str
    hip: str
    kind: str
    since: str
    family: str
    code: str
    older: str = ""
    older_drop_arg: int = -1
    # `since` is the oldest release of the family's HIP library that was inspected: the name may be older
    since_is_floor: bool = False
    # the newest release inspected before `since` (which lacks the name): the name came after it, at `since` or
    # in a release between them that was not inspected; "" when not known
    lacking: str = ""
    # the first release that has `older` ("" = every release before `since`): hipblasCaxpy_v2 came with HIP 6
    older_since: str = ""

    def newer_than(self, target: tuple[int, int]) -> bool:
        """Known to have come after HIP `target`. A `since` that is only the oldest release inspected does not
        say so: hipBLAS names start at 5.5 because Debian 12 packages no hipBLAS, not because HIP 5.2 lacked them."""
        return _newer(self.since, self.since_is_floor, target)


@dataclass(frozen=True)
class Header:
    cuda: str
    hip: str  # "" removes the include
    family: str
    code: str
    since: str = ""  # the first HIP release that ships `hip` ("" = every release the packs describe)
    older: str = ""  # the header to include for a target older than `since` ("" = `hip`, reported as too new)
    since_is_floor: bool = False  # as Mapping.since_is_floor

    def newer_than(self, target: tuple[int, int]) -> bool:
        """Known to have come after HIP `target` (never when `since` is only the oldest release inspected)."""
        return _newer(self.since, self.since_is_floor, target)

    def hip_for(self, target: tuple[int, int]) -> str:
        """The header to include when migrating for HIP `target`."""
        return self.older if self.older and self.newer_than(target) else self.hip


@dataclass(frozen=True)
class Unsupported:
    cuda: str
    kind: str
    family: str


@dataclass(frozen=True)
class Packs:
    names: dict[str, Mapping]  # CUDA name -> mapping
    by_hip: dict[str, Mapping]  # HIP name -> mapping (for checks on code that is already HIP)
    unsupported: dict[str, Unsupported]
    headers: dict[str, Header]
    families: dict[str, str]  # family -> code
    newest: str  # the newest `since` any row names
    releases: tuple[str, ...] = ()  # every HIP release a pack inspected or names as a `since`, oldest first

    def check_release(self, text: str) -> str | None:
        """Why `text` is no HIP release these packs can migrate for (None when it is one): major.minor between the
        oldest and the newest release they know. A release between two known ones (6.3) is taken as the packs
        read it: a name is there when its `since` is not newer."""
        try:
            key = version_tuple(text)
        except ValueError:
            return f"give major.minor, for example {self.newest}"
        if not self.releases or not (version_tuple(self.releases[0]) <= key <= version_tuple(self.releases[-1])):
            return (f"the mapping packs know HIP {self.releases[0]} to {self.releases[-1]} "
                    f"({', '.join(self.releases)}); give one of those or a release between them")
        return None

    @cached_property
    def all_names(self) -> frozenset[str]:
        """Every name a pack knows: CUDA names mapped or unsupported, and the HIP names they map to."""
        return frozenset(self.names) | frozenset(self.unsupported) | frozenset(self.by_hip)


def _newer(since: str, since_is_floor: bool, target: tuple[int, int]) -> bool:
    """`since` ("" for none) is a release after `target`, and more than the oldest release inspected."""
    return bool(since) and _version_key(since) > target and not since_is_floor


@lru_cache(maxsize=None)
def _version_key(text: str) -> tuple[int, int]:
    return version_tuple(text)


def version_tuple(text: str) -> tuple[int, int]:
    major, _, minor = text.partition(".")
    return int(major), int(minor or 0)


def _check_table(path: Path, where: str, table: object, keys: dict[str, type], required: set[str]) -> dict:
    if not isinstance(table, dict):
        raise PackError(f"{path}: {where} must be a table")
    for key, value in table.items():
        if key not in keys:
            raise PackError(f"{path}: {where}: unknown key '{key}' (allowed: {', '.join(sorted(keys))})")
        if not isinstance(value, keys[key]) or isinstance(value, bool):
            raise PackError(f"{path}: {where}: '{key}' must be {keys[key].__name__}")
    missing = required - table.keys()
    if missing:
        raise PackError(f"{path}: {where}: missing {', '.join(sorted(missing))}")
    return table


def _load_one(path: Path) -> tuple[dict, dict, dict, dict]:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise PackError(f"{path}: cannot read mapping pack: {exc}") from exc
    unknown = set(data) - {"pack", "names", "unsupported", "headers"}
    if unknown:
        raise PackError(f"{path}: unknown table(s) {', '.join(sorted(unknown))}")
    head = _check_table(path, "[pack]", data.get("pack"), PACK_KEYS, {"family", "code"})
    if not re.fullmatch(r"MAP\d{3}", head["code"]):
        raise PackError(f"{path}: [pack] code must look like MAP001")
    if "inspected_from" in head and not VERSION.match(head["inspected_from"]):
        raise PackError(f"{path}: [pack] inspected_from must look like 5.2")
    if not all(isinstance(r, str) and VERSION.match(r) for r in head.get("inspected", [])):
        raise PackError(f"{path}: [pack] inspected must list releases like 5.2")
    for name, row in data.get("names", {}).items():
        _check_table(path, f"[names] {name}", row, ROW_KEYS, {"hip", "kind", "since"})
        if not IDENT.match(name) or not IDENT.match(row["hip"]):
            raise PackError(f"{path}: [names] {name}: names must be C identifiers")
        if row["kind"] not in KINDS:
            raise PackError(f"{path}: [names] {name}: kind must be one of {', '.join(sorted(KINDS))}")
        if not VERSION.match(row["since"]):
            raise PackError(f"{path}: [names] {name}: since must look like 6.2")
        if "older_drop_arg" in row and "older" not in row:
            raise PackError(f"{path}: [names] {name}: older_drop_arg needs older")
        if "older_since" in row and ("older" not in row or not VERSION.match(row["older_since"])
                                     or version_tuple(row["older_since"]) >= version_tuple(row["since"])):
            raise PackError(f"{path}: [names] {name}: older_since needs older and must look like 6.2, before since")
    for name, row in data.get("unsupported", {}).items():
        _check_table(path, f"[unsupported] {name}", row, {"kind": str}, {"kind"})
    for name, row in data.get("headers", {}).items():
        _check_table(path, f"[headers] {name}", row, HEADER_KEYS, {"hip"})
        if "since" in row and not VERSION.match(row["since"]):
            raise PackError(f"{path}: [headers] {name}: since must look like 6.2")
        if "older" in row and "since" not in row:
            raise PackError(f"{path}: [headers] {name}: older needs since")
        if "older" in row and not row["older"]:
            raise PackError(f"{path}: [headers] {name}: older must name a header")
    return head, data.get("names", {}), data.get("unsupported", {}), data.get("headers", {})


def load_packs(directory: Path) -> Packs:
    names: dict[str, Mapping] = {}
    unsupported: dict[str, Unsupported] = {}
    headers: dict[str, Header] = {}
    families: dict[str, str] = {}
    origin: dict[str, Path] = {}
    releases: set[str] = set()
    overrides = directory / "overrides.toml"
    files = sorted(p for p in directory.glob("*.toml") if p != overrides)
    if not files:
        raise PackError(f"{directory}: no mapping packs (*.toml) found")
    for path in files:
        head, rows, unsup, heads = _load_one(path)
        family, code = head["family"], head["code"]
        floor = version_tuple(head["inspected_from"]) if "inspected_from" in head else None
        if family in families or code in families.values():
            raise PackError(f"{path}: family '{family}' or code {code} is already used by another pack")
        families[family] = code
        releases.update(head.get("inspected", []), [head["inspected_from"]] if "inspected_from" in head else [],
                        (row["since"] for row in rows.values()), (row["since"] for row in heads.values() if "since" in row))
        for cuda, row in rows.items():
            if cuda in origin:
                raise PackError(f"{path}: '{cuda}' is already mapped by {origin[cuda]}")
            origin[cuda] = path
            since = version_tuple(row["since"])
            lacking = [r for r in head.get("inspected", []) if version_tuple(r) < since]
            names[cuda] = Mapping(cuda, row["hip"], row["kind"], row["since"], family, code,
                                  row.get("older", ""), row.get("older_drop_arg", -1),
                                  floor is not None and since <= floor, max(lacking, key=version_tuple, default=""),
                                  row.get("older_since", ""))
        for cuda, row in unsup.items():
            unsupported[cuda] = Unsupported(cuda, row["kind"], family)
        for cuda, row in heads.items():
            since = row.get("since", "")
            headers[cuda] = Header(cuda, row["hip"], family, code, since, row.get("older", ""),
                                   bool(since) and floor is not None and version_tuple(since) <= floor)
    for name in list(unsupported):
        if name in names:
            del unsupported[name]
    by_hip: dict[str, Mapping] = {}
    for m in names.values():
        if m.hip != m.cuda:
            by_hip.setdefault(m.hip, m)
    newest = max([m.since for m in names.values()] + [h.since for h in headers.values() if h.since],
                 key=version_tuple, default="5.0")
    known = tuple(sorted({f"{major}.{minor}" for major, minor in map(version_tuple, releases)}, key=version_tuple))
    return Packs(names, by_hip, unsupported, headers, families, newest, known)


RULES_PACKAGE = "migrate.rules"  # rules/ of the repository, installed inside migrate (migrate/rules links to it)


def rules_root() -> Path:
    """The folder of the package migrate.rules: its rule modules, mappings/ and data/."""
    spec = importlib.util.find_spec(RULES_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise PackError(f"cannot find the package {RULES_PACKAGE} (rules/ of the repository)")
    return Path(spec.submodule_search_locations[0])


@lru_cache(maxsize=4)
def default_packs(directory: str | None = None) -> Packs:
    """The packs of rules/mappings/, or of $HIPMIGRATE_PACKS (a folder of packs of your own)."""
    directory = directory or os.environ.get("HIPMIGRATE_PACKS")
    return load_packs(Path(directory) if directory else rules_root() / "mappings")
