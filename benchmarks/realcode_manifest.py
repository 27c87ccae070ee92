"""The real-code corpus: benchmarks/realcode.toml read into Project records, checked, and its units found in a tree.

A project names a GitHub repository and a commit, the globs of its translation units, its include folders and
defines, and optionally its own HIP port (a pair FROM, TO that turns a unit's path into the port's path). The
snapshots themselves live in a cache outside the repository (benchmarks/realcode_fetch.py).
"""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

MANIFEST = Path(__file__).with_name("realcode.toml")
REQUIRED = ("name", "repo", "commit", "units", "why")
KNOWN = {*REQUIRED, "paths", "exclude", "include", "defines", "nvcc", "port", "make_variable", "submodules"}
COMMIT = re.compile(r"[0-9a-f]{40}")
REPO = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9][A-Za-z0-9_.-]*")


class ManifestError(ValueError):
    pass


@dataclass(frozen=True)
class Project:
    name: str
    repo: str
    commit: str
    why: str
    units: tuple[str, ...]
    paths: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()  # gitignore-style patterns left out of the migrations (vendored headers of
    #                                other systems); the migrated units find them in the original tree
    include: tuple[str, ...] = ()
    defines: tuple[str, ...] = ()
    nvcc: tuple[str, ...] = ()
    port: tuple[str, str] | None = None
    make_variable: str | None = None  # a unit is kept only where its folder's Makefile names it in this variable
    #                                   (`source = main.cu kernels.cu`), so that files it #includes are not units
    submodules: tuple[tuple[str, str, str], ...] = ()  # (path, owner/name, commit): git submodules the snapshot
    #                                   lacks, each extracted from its own mirror into the tree at path

    @property
    def mirror_name(self) -> str:
        """The folder the fetch tool gives the snapshot: owner+name."""
        return self.repo.replace("/", "+")

    def port_path(self, rel: str) -> str | None:
        """The human port's counterpart of a path of the original, or None without a port or a match."""
        if self.port is None or self.port[0] not in rel:
            return None
        return rel.replace(self.port[0], self.port[1], 1)


def _strings(raw, key: str, name: str) -> tuple[str, ...]:
    value = raw.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise ManifestError(f"{name}: {key} must be a list of non-empty strings")
    return tuple(value)


def project_of(raw: dict) -> Project:
    name = raw.get("name") or "?"
    missing = [k for k in REQUIRED if not raw.get(k)]
    if missing:
        raise ManifestError(f"{name}: missing {', '.join(missing)}")
    unknown = sorted(set(raw) - KNOWN)
    if unknown:
        raise ManifestError(f"{name}: unknown keys {', '.join(unknown)}")
    if not REPO.fullmatch(raw["repo"]):
        raise ManifestError(f"{name}: repo must be owner/name, not {raw['repo']!r}")
    if not COMMIT.fullmatch(raw["commit"]):
        raise ManifestError(f"{name}: commit must be 40 lower-case hex digits")
    if not isinstance(raw["why"], str) or "\n" in raw["why"]:
        raise ManifestError(f"{name}: why must be one line")
    port = raw.get("port")
    if port is not None and (not isinstance(port, list) or len(port) != 2 or not all(port)):
        raise ManifestError(f"{name}: port must be [FROM, TO]")
    submodules = raw.get("submodules", [])
    if not isinstance(submodules, list) or not all(
            isinstance(s, list) and len(s) == 3 and all(isinstance(v, str) and v for v in s)
            and REPO.fullmatch(s[1]) and COMMIT.fullmatch(s[2]) for s in submodules):
        raise ManifestError(f"{name}: submodules must be a list of [PATH, owner/name, COMMIT]")
    return Project(name=name, repo=raw["repo"], commit=raw["commit"], why=raw["why"],
                   units=_strings(raw, "units", name), paths=_strings(raw, "paths", name),
                   exclude=_strings(raw, "exclude", name),
                   include=_strings(raw, "include", name), defines=_strings(raw, "defines", name),
                   nvcc=_strings(raw, "nvcc", name), port=tuple(port) if port else None,
                   make_variable=raw.get("make_variable"), submodules=tuple(tuple(s) for s in submodules))


def load(path: Path = MANIFEST) -> list[Project]:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    projects = [project_of(raw) for raw in data.get("project", [])]
    names = [p.name for p in projects]
    if len(set(names)) != len(names):
        raise ManifestError("project names must be unique")
    return projects


def glob_regex(pattern: str) -> re.Pattern:
    """A path glob as a regex over forward-slash paths: ** spans folders, * and ? stay within one."""
    out, i = [], 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out))


def units_in(project: Project, root: Path) -> list[str]:
    """The project's units found under root, as sorted forward-slash paths relative to it."""
    patterns = [glob_regex(g) for g in project.units]
    found = []
    for path in root.rglob("*"):
        if path.is_file():
            rel = PurePosixPath(path.relative_to(root)).as_posix()
            if any(p.fullmatch(rel) for p in patterns):
                found.append(rel)
    if project.make_variable:
        found = [rel for rel in found if _named_by_make(root, rel, project.make_variable)]
    return sorted(found)


def _named_by_make(root: Path, rel: str, variable: str) -> bool:
    """Whether the Makefile beside a unit names it in `variable` (true where there is no such Makefile line)."""
    makefile = (root / rel).parent / "Makefile"
    try:
        text = makefile.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return True
    lines = re.findall(rf"^\s*{re.escape(variable)}\s*[:+]?=(.*)$", text, re.MULTILINE)
    return not lines or any(PurePosixPath(rel).name in line.split() for line in lines)
