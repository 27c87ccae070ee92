"""The check pipeline: gather files, run them through the pipeline of `run` and `scan` (migrate.api.analyse_files,
inline suppressions included) or read the cache, then --base, the gate, --select/--ignore and the baseline, in that
order.

Paths in findings are relative to the current folder (forward slashes), as the user gave them on the command
line; baselines are therefore written and read from the same folder (the repository's top, in CI).
"""
from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

from migrate.check import baseline as baseline_file
from migrate.check import gitdiff
from migrate.check.cache import Cache, Stats, content_digest, recall, remember, ruleset_version
from migrate.check.gate import blocks, parse_severity
from migrate.check.result import CheckResult
from migrate.check.selection import Selection
from migrate import internal
from migrate.config import ProjectConfig
from migrate.model import FileResult, Finding, Severity
from migrate.options import Options, default_jobs
from migrate.stages import scan
from migrate.errors import UsageError
from migrate.filekinds import CPP, RULE_KINDS, classify
from migrate.stages.scan import SourceFile

CHECKED_KINDS = (CPP, *RULE_KINDS)
CODE_PREFIX = re.compile(r"(ALL|(MAP|CPP|HAZ|PY|BLD|INP|ENG|CHK)\d{0,3})")
DEFAULT_CACHE = Path(".hipmigrate") / "cache"


@dataclass(frozen=True)
class Settings:
    paths: tuple[Path, ...] = (Path("."),)
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    min_severity: Severity = Severity.WARNING
    baseline: Path | None = None
    base: str | None = None
    cache: bool = True
    cache_dir: Path | None = None  # default: .hipmigrate/cache in the repository's top folder (else here)
    exclude: tuple[str, ...] = ()
    hip_version: str = ""
    unsafe_fixes: bool = False
    jobs: int = 1
    suppressions: bool = True  # honour `hipmigrate: ignore[...]`; False: --no-suppressions
    origins: tuple[tuple[str, str], ...] = ()  # (key, where in pyproject.toml) of each setting taken from there

    def named(self, key: str) -> str:
        """How a message names setting `key`: `--key`, or the pyproject.toml that set it (`PATH: [tool.hipmigrate]
        key`), so that a bad value there is not blamed on an option nobody gave."""
        return _named(dict(self.origins), key)

    @classmethod
    def resolve(cls, config: ProjectConfig, **given) -> "Settings":
        """Command-line values (None when not given) over `[tool.hipmigrate]` over the defaults."""
        taken: dict[str, str] = {}

        def pick(name: str, key: str, default):
            value = given.get(name)
            if value is not None and value != ():
                return value
            if config.get(key) is not None:
                taken[key] = f"{config.path}: [tool.hipmigrate] {key}"
            return config.get(key, default)

        baseline = given.get("baseline")
        if not baseline and config.get("baseline") is not None:
            taken["baseline"] = f"{config.path}: [tool.hipmigrate] baseline"
        baseline = Path(baseline) if baseline else config.path_value("baseline")
        cache_dir = given.get("cache_dir")
        cache_dir = Path(cache_dir) if cache_dir else config.path_value("cache-dir")
        no_cache = given.get("no_cache")
        for name, entries in (("select", pick("select", "select", ())), ("ignore", pick("ignore", "ignore", ()))):
            name = _named(taken, name)
            for entry in (e.strip().upper() for item in entries for e in item.split(",") if e.strip()):
                if not CODE_PREFIX.fullmatch(entry):
                    raise UsageError(f"{name} {entry}: not a rule code or prefix (MAP, CPP, HAZ, PY, BLD, INP, ENG, "
                                     "CHK, optionally with digits; `hipmigrate rules` lists them)")
        paths = tuple(Path(p) for p in given.get("paths") or ()) or (Path("."),)
        min_severity = parse_severity(pick("min_severity", "min-severity", "warning"), _named(taken, "min-severity"))
        hip_version = pick("hip_version", "hip-version", "")
        return cls(paths=paths, select=tuple(pick("select", "select", ())), ignore=tuple(pick("ignore", "ignore", ())),
                   min_severity=min_severity, baseline=baseline,
                   base=given.get("base") or None, cache=not no_cache and bool(config.get("cache", True)),
                   cache_dir=cache_dir, exclude=tuple(given.get("exclude") or ()) + tuple(config.get("exclude", [])),
                   hip_version=hip_version,
                   unsafe_fixes=bool(given.get("unsafe_fixes") or config.get("unsafe-fixes", False)),
                   jobs=given.get("jobs") or default_jobs(), suppressions=not given.get("no_suppressions"),
                   origins=tuple(taken.items()))


def _named(origins: dict[str, str], key: str) -> str:
    return origins.get(key, f"--{key}")


def display(path: Path, cwd: Path) -> str:
    return os.path.relpath(os.path.abspath(path), cwd).replace(os.sep, "/")


def _file_kind(path: Path, rel: str) -> str | None:
    """The kind `run` gives the file at `rel` (its folders count: requirements/base.txt), None for others."""
    kind = classify(path, rel)
    return kind if kind in CHECKED_KINDS else None


def _project_root(path: Path) -> Path:
    folder = path.parent if not path.is_dir() else path
    try:
        return gitdiff.top_level(folder)
    except UsageError:
        return folder.resolve()


def gather(settings: Settings, cwd: Path) -> tuple[list[SourceFile], frozenset[str]]:
    """The files to check (display path, real path, kind) and the macros the project #defines in its headers."""
    options = Options(exclude=settings.exclude)
    files: dict[str, SourceFile] = {}
    macros: set[str] = set()
    roots_done: set[Path] = set()
    tops: dict[Path, Path] = {}  # folder of a file argument -> its project root (one git call per folder)
    for given in settings.paths:
        if not os.path.lexists(given):
            raise UsageError(f"{given}: no such file or folder")
        if given.is_dir():
            inventory = scan.collect(given, options)
            macros |= inventory.project_names
            roots_done.add(given.resolve())
            prefix = display(given, cwd)
            prefix = "" if prefix == "." else prefix + "/"
            for f in inventory.files:
                if f.kind in CHECKED_KINDS or f.kind == "unreadable":  # a folder it cannot list is reported
                    rel = prefix + f.rel
                    files[rel] = SourceFile(rel, f.path, f.kind)
            continue
        kind = _file_kind(given, display(given, cwd))
        if kind is None or given.is_symlink():
            continue  # pre-commit passes every staged file: those no rule reads are not ours
        if settings.exclude:
            import pathspec

            if pathspec.PathSpec.from_lines("gitignore", settings.exclude).match_file(display(given, cwd)):
                continue
        folder = given.parent.resolve()
        if folder not in tops:
            tops[folder] = _project_root(given)
        root = tops[folder]
        if root not in roots_done:
            roots_done.add(root)
            macros |= scan.collect(root, options).project_names
        rel = display(given, cwd)
        files[rel] = SourceFile(rel, given, kind)
    return [files[k] for k in sorted(files)], frozenset(macros)


def top_relative(rel: str, cwd: Path, top: Path, memo: dict[str, str]) -> str:
    """A display path (relative to cwd) made relative to the repository's top folder; symbolic links in the
    folders are resolved once per folder."""
    folder, _, name = rel.rpartition("/")
    if folder not in memo:
        real = os.path.realpath(cwd / folder) if folder else os.path.realpath(cwd)
        memo[folder] = os.path.relpath(real, top).replace(os.sep, "/")
    base = memo[folder]
    return name if base == "." else f"{base}/{name}"


def target_version(settings: Settings, cache_folder: Path | None) -> str:
    """--hip-version, else the installed hipcc's HIP version, else the newest the packs know (remembered in the
    cache folder, keyed by hipconfig's path and stat, since asking hipconfig takes a while)."""
    from migrate.packs import version_tuple

    if settings.hip_version:
        return scan.given_hip_version(settings.hip_version, settings.named("hip-version"))
    from migrate.toolchain import which

    tool = which("hipconfig")
    try:
        st = os.stat(tool) if tool else None
    except OSError:
        st = None
    stamp = [tool, st.st_mtime_ns if st else 0, st.st_size if st else 0,
             ruleset_version(cache_folder / "ruleset.json" if cache_folder else None)]
    memo = cache_folder / "toolchain.json" if cache_folder else None
    known = recall(memo, stamp, "target")
    if known is not None:
        try:
            version_tuple(known)
            return known
        except ValueError:
            pass
    from migrate.packs import default_packs
    from migrate.toolchain import installed_hip_version

    target = installed_hip_version() or default_packs().newest
    remember(memo, stamp, "target", target)
    return target


def _all_or_nothing(kind: str) -> bool:
    from migrate.contexts import CONTEXTS

    return getattr(CONTEXTS.get(kind), "all_or_nothing", False)


def _analysed(todo: list[SourceFile], options: Options, cwd: Path) -> tuple[FileResult, ...]:
    """The files through the pipeline `run` and `scan` use (migrate.api.analyse_files)."""
    from migrate import api

    inventory = scan.Inventory(cwd, False, tuple(todo), options.project_names)
    return api.analyse_files(inventory, options, target=options.hip_version).files


def cache_folder(settings: Settings, cwd: Path) -> Path:
    if settings.cache_dir is not None:
        return settings.cache_dir
    env = os.environ.get("HIPMIGRATE_CACHE_DIR")
    if env:
        return Path(env)
    return _project_root(cwd) / DEFAULT_CACHE


def _repository_of(paths: tuple[Path, ...], cwd: Path) -> Path:
    """The top folder of the one git work tree that holds every path (`--base` compares within it)."""
    tops = {_project_root(p if p.is_absolute() else cwd / p) for p in paths} if paths else {_project_root(cwd)}
    if len(tops) > 1:
        raise UsageError("--base compares lines within one git repository, but the paths lie in "
                         f"{len(tops)}: {', '.join(sorted(map(str, tops)))}; check each repository on its own")
    return tops.pop()


def check(settings: Settings, cwd: Path | None = None, keep_results: bool = False) -> CheckResult:
    cwd = (cwd or Path.cwd()).resolve()
    selection = Selection.of(settings.select, settings.ignore)
    known = baseline_file.load(settings.baseline, settings.named("baseline")) if settings.baseline is not None else None
    folder = cache_folder(settings, cwd)
    target = target_version(settings, folder if settings.cache else None)
    files, macros = gather(settings, cwd)
    changes = None
    if settings.base:
        changes = gitdiff.changes(_repository_of(settings.paths, cwd), settings.base)
        memo: dict[str, str] = {}

        def top_rel(f: SourceFile) -> str:
            return top_relative(f.rel, cwd, changes.top, memo)

        files = [f for f in files if changes.touched(top_rel(f))]
    options = Options(hip_version=target, unsafe_fixes=settings.unsafe_fixes, exclude=settings.exclude,
                      project_names=macros, jobs=settings.jobs, suppressions=settings.suppressions)
    salt = json.dumps([target, settings.unsafe_fixes, options.launch_syntax, options.translate_comments,
                       options.portable, list(options.offload_arch), options.max_file_size, options.over_size,
                       sorted(macros), options.suppressions])
    cache = Cache(folder, content_digest(salt.encode())) if settings.cache else None
    stats = cache.stats if cache else Stats()

    results: dict[str, FileResult] = {}
    datas: dict[str, tuple[bytes, str]] = {}
    todo: list[SourceFile] = []
    for f in files:
        try:
            data = f.path.read_bytes()
        except OSError:
            todo.append(f)  # the engine reports why (INP004)
            continue
        digest = content_digest(data)
        datas[f.rel] = (data, digest)
        hit = cache.get(f.rel, digest, data) if cache else None
        if hit is None:
            todo.append(f)
        else:
            results[f.rel] = hit
    if todo:
        for r in _analysed(todo, options, cwd):
            results[r.path] = r
            stats.analysed.append(r.path)
            if cache and r.path in datas and (r.old is None or r.old == datas[r.path][0]) \
                    and not internal.failed(r.findings):  # a file that met a bug is analysed again next time
                cache.put(r, datas[r.path][1])

    gating, notes, suppressed = [], [], 0
    for f in files:
        r = results[f.rel]
        suppressed += len(r.suppressed)
        added = changes.lines(top_rel(f)) if changes else gitdiff.ALL

        def on_added(finding: Finding) -> bool:
            return added is gitdiff.ALL or finding.span.line in added

        gating.extend(x for x in r.findings
                      if blocks(x, settings.min_severity) and selection.selected(x.code) and on_added(x))
        notes.extend(x for x in r.unused if selection.selected(x.code) and on_added(x))
        notes.extend(internal.failed(r.findings))  # reported whatever the selection; the command exits 2
        if f.kind == "unreadable":
            notes.extend(r.findings)  # a folder that could not be listed: what is in it was not checked
        if _all_or_nothing(f.kind):
            # a Python or deployment file its parser refused was not checked at all: say so (never failing)
            notes.extend(x for x in r.findings if x.code == "INP001" and selection.selected(x.code))
    baselined: list[Finding] = []
    if known is not None:
        gating, baselined = baseline_file.split(gating, known)
    order = lambda x: (x.span.path, x.span.line, x.span.column, x.code)  # noqa: E731
    kept = results if keep_results else {p: results[p] for p in {x.span.path for x in gating + notes} if p in results}
    return CheckResult(sorted(gating, key=order), sorted(notes, key=order), target, len(files),
                       sum(r.lines for r in results.values()), stats, changes, suppressed, len(baselined), kept,
                       {f.rel: f.kind for f in files}, cwd, settings.unsafe_fixes)
