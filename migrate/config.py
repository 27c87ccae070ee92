"""`[tool.hipmigrate]` in pyproject.toml: the settings a project keeps in its repository, read by `check`,
`suggest` and `build`.

The file is the first pyproject.toml with a `[tool.hipmigrate]` table found from the first checked path (or the
current folder) upwards, as ruff looks for `[tool.ruff]`. Keys (command-line options take precedence):

    [tool.hipmigrate]
    select = ["MAP", "HAZ"]        # codes or prefixes
    ignore = ["HAZ013"]
    min-severity = "warning"       # info | warning | error
    baseline = "hipmigrate-baseline.json"
    exclude = ["third_party/"]     # gitignore-style patterns
    hip-version = "6.2"
    cache = true
    cache-dir = ".hipmigrate/cache"
    unsafe-fixes = false           # suggest: also apply fixes graded unsafe
    hipcc = "/opt/rocm-6.4.1/bin/hipcc"   # build: the toolchain to compile with

Relative paths are taken from the folder holding the pyproject.toml. A pyproject.toml met on the way up that is
not valid TOML, an unknown key, or a value of the wrong type, is a usage error (exit status 2); so is a bad value
(migrate/check/runner.py checks those, naming the file and key: Settings.named).
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from migrate.errors import UsageError

KEYS: dict[str, type | tuple[type, ...]] = {
    "select": list, "ignore": list, "min-severity": str, "baseline": str, "exclude": list, "hip-version": str,
    "cache": bool, "cache-dir": str, "unsafe-fixes": bool, "hipcc": str,
    "bench": dict,  # [tool.hipmigrate.bench]: the benchmarks, whose keys `hipmigrate bench` checks (migrate/bench)
}


@dataclass(frozen=True)
class ProjectConfig:
    path: Path | None = None  # the pyproject.toml read, None when none was found
    values: dict = field(default_factory=dict)

    def get(self, key: str, default=None):
        return self.values.get(key, default)

    def path_value(self, key: str) -> Path | None:
        value = self.values.get(key)
        if value is None:
            return None
        return (self.path.parent / value) if self.path is not None else Path(value)


def find(start: Path) -> Path | None:
    here = start.resolve()
    if not here.is_dir():
        here = here.parent
    for folder in (here, *here.parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            data = _parsed(candidate)
            if isinstance(data.get("tool"), dict) and "hipmigrate" in data["tool"]:
                return candidate
    return None


def _parsed(path: Path) -> dict:
    """A pyproject.toml read as TOML. One that cannot be is a usage error, not a file without settings: its
    [tool.hipmigrate] would be ignored without a word (as ruff refuses a broken pyproject.toml)."""
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"{path}: not valid TOML ({exc}); fix it, since hipmigrate reads its [tool.hipmigrate] "
                         "settings from the first pyproject.toml found from here up") from None
    except UnicodeDecodeError as exc:
        raise UsageError(f"{path}: not UTF-8 (byte 0x{exc.object[exc.start]:02x} at offset {exc.start}), so not "
                         "TOML; fix it") from None
    except OSError as exc:
        raise UsageError(f"{path}: cannot read: {exc.strerror or exc}") from None


def load(start: Path) -> ProjectConfig:
    path = find(start)
    if path is None:
        return ProjectConfig()
    table = _parsed(path)["tool"]["hipmigrate"]
    if not isinstance(table, dict):
        raise UsageError(f"{path}: [tool.hipmigrate] must be a table")
    for key, value in table.items():
        if key not in KEYS:
            raise UsageError(f"{path}: [tool.hipmigrate] has no setting {key!r} (known: {', '.join(KEYS)})")
        if not isinstance(value, KEYS[key]) or (KEYS[key] is list and not all(isinstance(v, str) for v in value)):
            want = "a list of strings" if KEYS[key] is list else KEYS[key].__name__
            raise UsageError(f"{path}: [tool.hipmigrate] {key} must be {want}")
    return ProjectConfig(path, dict(table))
