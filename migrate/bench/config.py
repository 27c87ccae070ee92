"""Reading benchmark declarations: `[tool.hipmigrate.bench]` of pyproject.toml, or hipmigrate.toml (the same
table, or `[bench]` at its top). The format is in docs/bench.md. Every key is checked: a misspelt key is an
error, not a silently ignored setting."""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from migrate.errors import UsageError

CONFIG_FILES = ("hipmigrate.toml", "pyproject.toml")
DEFAULTS = {"repetitions": 5, "warmups": 1, "timeout": 600.0, "build-timeout": 1800.0}
TOP_KEYS = {"build", "build-timeout", "repetitions", "warmups", "timeout", "env", "benchmark"}
BENCH_KEYS = {"name", "command", "cwd", "repetitions", "warmups", "timeout", "regex", "json-field", "unit",
              "higher-is-better", "expect", "env"}
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:/+-]*")


class BenchError(UsageError):
    """A usage or configuration error: no declarations, a bad key, an unreadable results file (exit status 2)."""


@dataclass(frozen=True)
class Figure:
    """How a run's figure is read: the wall time of the command (`kind` "wall"), the first group of a regular
    expression over stdout ("regex"), or a field of a JSON document on stdout ("json", dotted path)."""
    kind: str
    pattern: str | None
    field: str | None
    unit: str
    higher_is_better: bool

    def as_dict(self) -> dict:
        return {"kind": self.kind, "regex": self.pattern, "json_field": self.field, "unit": self.unit,
                "higher_is_better": self.higher_is_better}


@dataclass(frozen=True)
class Benchmark:
    name: str
    command: str | tuple[str, ...]  # a string runs through /bin/sh -c; a list runs as given
    cwd: Path
    repetitions: int
    warmups: int
    timeout: float
    figure: Figure
    expect: str | None  # a regular expression stdout must match for the run to count
    env: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class BenchConfig:
    project: Path
    source: Path  # the file the declarations came from
    build: str | tuple[str, ...] | None  # run once, in the project folder, before any benchmark
    build_timeout: float
    env: tuple[tuple[str, str], ...]
    benchmarks: tuple[Benchmark, ...]


def find(project: Path) -> tuple[Path, dict]:
    """The declaration file of `project` and its bench table."""
    if not project.is_dir():
        raise BenchError(f"{project}: not a folder; give the project folder that holds hipmigrate.toml or pyproject.toml")
    for name in CONFIG_FILES:
        path = project / name
        if not path.is_file():
            continue
        try:
            doc = tomllib.loads(path.read_text())
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise BenchError(f"{path}: cannot be read as TOML: {exc}") from None
        table = doc.get("tool", {}).get("hipmigrate", {}).get("bench")
        if table is None and name == "hipmigrate.toml":
            table = doc.get("bench")
        if table is not None:
            if not isinstance(table, dict):
                raise BenchError(f"{path}: the bench declarations must be a table")
            return path, table
    raise BenchError(f"{project}: no [tool.hipmigrate.bench] in hipmigrate.toml or pyproject.toml "
                     "(docs/bench.md shows the format)")


def load(project: Path) -> BenchConfig:
    path, table = find(project)
    where = f"{path}: [tool.hipmigrate.bench]"
    _unknown(table, TOP_KEYS, where)
    defaults = {key: table.get(key, value) for key, value in DEFAULTS.items()}
    env = _env(table.get("env", {}), where)
    entries = table.get("benchmark", [])
    if not isinstance(entries, list) or not entries or not all(isinstance(e, dict) for e in entries):
        raise BenchError(f"{where}: declare at least one [[...bench.benchmark]] table")
    benchmarks = tuple(_benchmark(project, entry, defaults, env, f"{where} benchmark {i + 1}")
                       for i, entry in enumerate(entries))
    names = [b.name for b in benchmarks]
    duplicate = next((n for n in names if names.count(n) > 1), None)
    if duplicate:
        raise BenchError(f"{where}: benchmark name {duplicate!r} is declared twice")
    return BenchConfig(project=project, source=path, build=_command(table.get("build"), where, "build", True),
                       build_timeout=_number(defaults["build-timeout"], where, "build-timeout"), env=env,
                       benchmarks=benchmarks)


def _benchmark(project: Path, entry: dict, defaults: dict, env: tuple, where: str) -> Benchmark:
    _unknown(entry, BENCH_KEYS, where)
    name = entry.get("name")
    if not isinstance(name, str) or not NAME.fullmatch(name):
        raise BenchError(f"{where}: `name` must be a word of letters, digits and _.:/+- (got {name!r})")
    where = f"{where} ({name})"
    regex, field = entry.get("regex"), entry.get("json-field")
    if regex is not None and field is not None:
        raise BenchError(f"{where}: give `regex` or `json-field`, not both")
    if regex is not None:
        if not isinstance(regex, str):
            raise BenchError(f"{where}: `regex` must be a string")
        try:
            compiled = re.compile(regex)
        except re.error as exc:
            raise BenchError(f"{where}: `regex` {regex!r} does not compile: {exc}") from None
        if compiled.groups > 1:
            raise BenchError(f"{where}: `regex` may have at most one group (the figure)")
    if field is not None and (not isinstance(field, str) or not field):
        raise BenchError(f"{where}: `json-field` must be a dotted path such as results.time_ms")
    kind = "regex" if regex is not None else "json" if field is not None else "wall"
    unit = entry.get("unit", "s" if kind == "wall" else "")
    higher = entry.get("higher-is-better", False)
    if not isinstance(unit, str) or not isinstance(higher, bool):
        raise BenchError(f"{where}: `unit` must be a string and `higher-is-better` true or false")
    expect = entry.get("expect")
    if expect is not None:
        try:
            re.compile(expect)
        except (re.error, TypeError) as exc:
            raise BenchError(f"{where}: `expect` must be a regular expression: {exc}") from None
    cwd = entry.get("cwd", ".")
    if not isinstance(cwd, str):
        raise BenchError(f"{where}: `cwd` must be a path relative to {project}")
    return Benchmark(
        name=name, command=_command(entry.get("command"), where, "command", False), cwd=project / cwd,
        repetitions=_count(entry.get("repetitions", defaults["repetitions"]), where, "repetitions", 1),
        warmups=_count(entry.get("warmups", defaults["warmups"]), where, "warmups", 0),
        timeout=_number(entry.get("timeout", defaults["timeout"]), where, "timeout"),
        figure=Figure(kind, regex, field, unit, higher), expect=expect,
        env=env + _env(entry.get("env", {}), where))


def _unknown(table: dict, known: set[str], where: str) -> None:
    extra = sorted(set(table) - known)
    if extra:
        raise BenchError(f"{where}: unknown key {extra[0]!r} (known: {', '.join(sorted(known))})")


def _command(value, where: str, key: str, optional: bool) -> str | tuple[str, ...] | None:
    if value is None and optional:
        return None
    if isinstance(value, str) and value.strip():
        return value
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        return tuple(value)
    raise BenchError(f"{where}: `{key}` must be a shell command line or a list of arguments")


def _count(value, where: str, key: str, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise BenchError(f"{where}: `{key}` must be a whole number of at least {minimum} (got {value!r})")
    return value


def _number(value, where: str, key: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
        raise BenchError(f"{where}: `{key}` must be a positive number of seconds (got {value!r})")
    return float(value)


def _env(value, where: str) -> tuple[tuple[str, str], ...]:
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        raise BenchError(f"{where}: `env` must be a table of strings")
    return tuple(sorted(value.items()))
