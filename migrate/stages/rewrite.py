"""Stage 2, rewrite: read every source file safely and translate the C++ ones, in parallel if asked.

Nothing is written here: the result holds the old and new bytes of each file.
"""
from __future__ import annotations

import codecs
import gc
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import replace
from typing import Callable

from migrate.verify.linemap import LineMap
from migrate.contexts import CONTEXTS
from migrate.cpp import hipify_perl, rename_only, token_diff
from migrate.cpp.guarded_helpers import where
from migrate.cpp.project_names import is_header
from migrate.cpp.context import CppContext, candidates_for
from migrate.cpp_engine import recording, translate
from migrate import internal, interrupt, newlines, suppress, wire
from migrate.fixing import input_finding, run_rules
from migrate.model import (Applicability, Edit, EngineInfo, FileResult, FileStatus, Finding, Fix, MigrationResult,
                           Outcome, RuleKind, Severity, Span)
from migrate.options import Options
from migrate.packs import Packs, default_packs
from migrate.registry import default_registry
from migrate.stages.late import vanished
from migrate.stages.report import CONVERSION, section
from migrate.stages.not_migrated import not_migrated
from migrate.stages.scan import Inventory, SourceFile

Progress = Callable[[int], None]
LISTED_PER_CODE = 1000  # findings of one code listed per file; INP013 counts the rest
DEPTH = 5000  # frames of recursion the rules may take (Python's default is 1,000)


def read_source(f: SourceFile, options: Options) -> tuple[bytes | None, list[Finding]]:
    """The file's bytes, or None with the reason when it must not go through the engine. A file over
    --max-file-size is copied unchanged (INP005), but a C++ one, which is renamed only (migrate_file), unless
    --over-size copy is given."""
    try:
        size = f.path.stat().st_size
        if size > options.max_file_size and (f.kind != "cpp" or options.over_size == "copy"):
            return None, [input_finding(f.rel, "INP005", f"{size} bytes is over the {options.max_file_size}-byte limit: "
                                        "copied unchanged; raise --max-file-size to migrate it")]
        data = f.path.read_bytes()
    except FileNotFoundError:
        return None, [vanished(f.rel, "vanished", "left out of the output")]
    except OSError as exc:
        return None, [input_finding(f.rel, "INP004", f"cannot read: {exc.strerror or exc}; fix its permissions "
                                    "and run again", severity=Severity.ERROR)]
    if b"\0" in data[:8192]:
        return None, [input_finding(f.rel, "INP002", f"binary content (NUL bytes) in a {'C++/CUDA source' if f.kind == 'cpp' else f.kind + ' file'}: copied "
                                    "unchanged; exclude it with --exclude if it is not source")]
    notes = []
    bad = first_bad_utf8(data)
    if bad is not None:
        line = data.count(b"\n", 0, bad) + 1
        notes.append(input_finding(f.rel, "INP003", f"not UTF-8 (byte 0x{data[bad]:02x} at line {line}): "
                                   "migrated byte for byte, the encoding is kept; convert it to UTF-8 when you can",
                                   line=line))
    return data, notes


def first_bad_utf8(data: bytes, step: int = 1 << 20) -> int | None:
    """Where `data` stops being UTF-8, None when it all is; decoded a megabyte at a time."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    view = memoryview(data)
    for at in range(0, len(data), step):
        pending = len(decoder.getstate()[0])
        try:
            decoder.decode(view[at:at + step], final=at + step >= len(data))
        except UnicodeDecodeError as exc:
            return at - pending + exc.start
    return None


def _rules():
    return [r() for r in default_registry().cpp()]


def migrate_file(f: SourceFile, options: Options, target: str, packs: Packs | None = None,
                 engine_output: bytes | None = None) -> FileResult:
    data, notes = read_source(f, options)
    if data is None:
        return FileResult(f.rel, FileStatus.SKIPPED, tuple(notes))
    packs = packs or default_packs()
    source = data if engine_output is None else engine_output
    if len(data) > options.max_file_size:  # the size policy: renamed only (migrate/cpp/rename_only.py)
        renamed = rename_only.rename(source, packs, target)
        new, findings = renamed.data, (_renamed_only(f.rel, len(data), options.max_file_size, renamed,
                                                     engine_output is not None),)
    else:
        result = translate(f.rel, source, options, packs, target, _rules())
        new, findings = result.data, result.findings
    status = FileStatus.MIGRATED if new != data else FileStatus.UNCHANGED
    return FileResult(f.rel, status, (*notes, *findings), data, new, data.count(b"\n"))


def _renamed_only(path: str, size: int, limit: int, result: rename_only.Renamed, after_perl: bool = False) -> Finding:
    """INP011: what the size policy did to a C++ file over the limit, and what it did not. After hipify-perl, its
    translation is kept and the rename pass renames what it left."""
    done = (f"hipify-perl's translation was kept and only CUDA names and headers it left were renamed after it "
            f"({result.names} names, {result.headers} include lines); no post-rule" if after_perl else
            f"only CUDA names and headers were renamed ({result.names} names, {result.headers} include lines); no rule")
    return input_finding(path, "INP011", f"{size} bytes is over the {limit}-byte limit of full analysis: {done} or "
                         "hazard check ran; raise --max-file-size to analyse it, or give --over-size copy to copy such "
                         "files unchanged")


def migrate_rule_file(f: SourceFile, options: Options, target: str) -> FileResult:
    """A build, Python or deployment file through the rules of its kind."""
    data, notes = read_source(f, options)
    if data is None:
        return FileResult(f.rel, FileStatus.SKIPPED, tuple(notes))
    rules = [r() for r in default_registry().for_kind(f.kind)]

    lone_cr = newlines.has_lone_cr(data)  # only then are the edits applied again, to the file's own bytes

    def run(text: bytes, edits: list[Edit]):
        return run_rules(CONTEXTS[f.kind](f.rel, text, options, default_packs(), target), rules,
                         extra_edits=recording(edits) if lone_cr else None)

    result = newlines.translated(data, run)
    status = FileStatus.MIGRATED if result.data != data else FileStatus.UNCHANGED
    return FileResult(f.rel, status, (*notes, *result.findings), data, result.data, data.count(b"\n"))


def _migrate_one(f: SourceFile, options: Options, target: str) -> FileResult:
    if f.kind != "cpp" and f.kind not in CONTEXTS:
        return not_migrated(f, options.in_place)
    try:
        r = migrate_file(f, options, target) if f.kind == "cpp" else migrate_rule_file(f, options, target)
        return capped(suppressed_apart(f, r, options))
    except Exception as exc:  # one file's failure never aborts the others
        return failed_file(f, options, exc)


def capped(r: FileResult, limit: int = LISTED_PER_CODE) -> FileResult:
    """The first `limit` findings of each code kept, in their order; for each code with more, one INP013 that counts
    the rest, its code, count and (for conversions) API family in the detail, which the report's counts add back."""
    seen = Counter(f.code for f in r.findings)
    over = {code for code, n in seen.items() if n > limit}
    if not over:
        return r
    kept, taken, families = [], Counter(), {}
    for f in r.findings:
        if f.code in over:
            taken[f.code] += 1
            if taken[f.code] > limit:  # a conversion's API family, for the report's count of conversions by family
                families.setdefault(f.code, set()).add((f.family or "other") if section(f) == CONVERSION else "")
                continue
        kept.append(f)
    for code in sorted(over):
        more, family = seen[code] - limit, families[code].pop() if len(families[code]) == 1 else ""
        kept.append(replace(input_finding(r.path, "INP013", f"{more} more {code} findings in this file are not listed "
                                          f"(the first {limit} are); their fixes were applied and the counts include "
                                          "them", severity=Severity.INFO), detail=(code, str(more), family)))
    return replace(r, findings=tuple(kept))


def suppressed_apart(f: SourceFile, r: FileResult, options: Options) -> FileResult:
    """The findings an inline suppression covers set apart from those reported, with the suppressions that matched
    nothing (CHK001); the fixes of the suppressed ones were not applied (migrate/fixing.py)."""
    sups = suppress.of_file(f.rel, f.kind, r.old, options) if r.old is not None else []
    if not sups:
        return r
    split = suppress.apply(list(r.findings), sups)
    return replace(r, findings=tuple(split.kept), suppressed=split.suppressed, unused=split.unused)


def failed_file(f: SourceFile, options: Options, exc: Exception) -> FileResult:
    """A file whose migration raised: copied unchanged, with the internal error (INP008) and what reading it said."""
    data, notes = read_source(f, options)
    lines = data.count(b"\n") if data is not None else 0
    return FileResult(f.rel, FileStatus.SKIPPED, (*notes, internal.finding(f.rel, exc)), data, None, lines)


def _worker(args) -> tuple:
    return wire.pack(_migrate_one(*args))


def _chunk_worker(files: list[SourceFile], options: Options, target: str) -> list[tuple]:
    return [wire.pack(_migrate_one(f, options, target)) for f in files]


@contextmanager
def tuned():
    """Run the cyclic garbage collector rarely, and let recursion go five times deeper than Python's default.

    A run makes tens of thousands of small objects that live to its end (findings, edits, spans) and hold no
    cycles; at the default threshold the collector scans them again every 700 allocations, about 8% of a run's
    time. libcst's visitors and the tree walks take several frames per level of nesting, so code nested a few
    hundred levels deep (generated expressions) needs more than 1,000 frames; beyond 5,000, INP010 reports it."""
    before, depth = gc.get_threshold(), sys.getrecursionlimit()
    gc.set_threshold(100_000, *before[1:])
    sys.setrecursionlimit(max(depth, DEPTH))
    try:
        yield
    finally:
        gc.set_threshold(*before)
        sys.setrecursionlimit(depth)


def migrate_files(files: list[SourceFile], options: Options, target: str,
                  progress: Progress | None = None) -> list[FileResult]:
    """Each file through the engine or the rules of its kind, in `options.jobs` processes; in order."""
    with tuned():  # forked workers inherit it
        return _migrate_files(files, options, target, progress)


def _migrate_files(files: list[SourceFile], options: Options, target: str,
                   progress: Progress | None = None) -> list[FileResult]:
    if options.jobs <= 1 or len(files) <= 1:
        results = []
        for f in files:
            results.append(_migrate_one(f, options, target))
            if progress:
                progress(1)
        return results
    # Load the packs, rules and token regex before forking: the workers inherit them instead of
    # each parsing the packs again.
    candidates_for(default_packs())
    default_registry()
    results = []
    pool = ProcessPoolExecutor(max_workers=options.jobs, initializer=interrupt.in_worker)
    try:
        # chunks of files, submitted here rather than by pool.map, which cancels its futures when the loop is left
        # and so races the pool's own thread when the workers are stopped
        size = max(1, len(files) // (8 * options.jobs))
        futures = [pool.submit(_chunk_worker, files[i:i + size], options, target) for i in range(0, len(files), size)]
        for future in futures:
            for packed in future.result():
                results.append(wire.unpack(packed))
                if progress:
                    progress(1)
    except BrokenProcessPool:  # a worker died (a crash in a parser, the kernel's OOM killer): find the file
        interrupt.stop_pool(pool)
        for f in files[len(results):]:
            results.append(_alone(f, options, target))
            if progress:
                progress(1)
        return results
    except BaseException:  # interrupted: the workers stop now, not after the queued files
        interrupt.stop_pool(pool)
        raise
    pool.shutdown()
    return results


def _alone(f: SourceFile, options: Options, target: str) -> FileResult:
    """One file in a process of its own, after a worker died: a file that kills this one too gets INP008."""
    pool = ProcessPoolExecutor(max_workers=1, initializer=interrupt.in_worker)
    try:
        return wire.unpack(pool.submit(_worker, (f, options, target)).result())
    except BrokenProcessPool as exc:
        return failed_file(f, options, exc)
    finally:
        interrupt.stop_pool(pool)


def rewrite(inventory: Inventory, options: Options, target: str, engine: EngineInfo,
            progress: Progress | None = None) -> MigrationResult:
    results: dict[str, FileResult] = {}
    headers = [f for f in inventory.cpp if is_header(f.rel)]
    sources = [f for f in inventory.cpp if not is_header(f.rel)]
    # Two waves: the headers first, so that the second knows the helpers they compile for NVIDIA only (CPP049) and
    # reports the calls of them (CPP050). The slower Python and build files go with the headers: a better spread.
    if engine.name == "hipify-perl":
        results.update(_with_hipify_perl(headers, options, target, progress))
        first = list(inventory.by_rules)
    else:
        first = [*inventory.by_rules, *headers]
    for r in migrate_files(first, options, target, progress):
        results[r.path] = r
    options = replace(options, guarded_helpers=guarded_helpers(results.values()))
    if engine.name == "hipify-perl":
        results.update(_with_hipify_perl(sources, options, target, progress))
    else:
        for r in migrate_files(sources, options, target, progress):
            results[r.path] = r
    shown = {p.evidence: p for p in inventory.ported}
    files = [results[f.rel] if f.rel in results else not_migrated(f, options.in_place, shown.get(f.rel))
             for f in inventory.files]
    return MigrationResult(str(inventory.root), None, engine, target, tuple(files))


def guarded_helpers(results) -> tuple[tuple[str, str, str], ...]:
    """The helpers the headers compile for NVIDIA only, from their CPP049 findings: (name, where and why, "overloaded"
    where another declaration of the name stays compiled beside it)."""
    found: dict[str, list] = {}
    for r in results:
        for x in r.findings:
            if x.code == "CPP049" and len(x.detail) == 4:
                name, why, how, overloaded = x.detail
                found.setdefault(name, []).append((where(x.span.path, x.span.line, why, how == "calls"), overloaded))
    return tuple((name, places[0][0], "overloaded" if any(p[1] for p in places) else "")
                 for name, places in sorted(found.items()))


def _with_hipify_perl(cpp: list[SourceFile], options: Options, target: str,
                      progress: Progress | None) -> dict[str, FileResult]:
    """hipify-perl translates; its renames become MAP findings (found by aligning identifiers of its input
    and output), its warnings ENG001 findings; then the same C++ rules run on its output."""
    tool = hipify_perl.find()
    if tool is None:
        raise hipify_perl.EngineError(hipify_perl.not_found())
    readable: dict[str, bytes] = {}
    results: dict[str, FileResult] = {}
    for f in cpp:
        data, notes = read_source(f, options)
        if data is None:
            results[f.rel] = FileResult(f.rel, FileStatus.SKIPPED, tuple(notes))
        else:
            readable[f.rel] = data
    out = hipify_perl.run(tool, readable, jobs=options.jobs) if readable else None
    with tuned():
        _rules_after_hipify_perl(cpp, readable, out, options, target, progress, results)
    return results


def _rules_after_hipify_perl(cpp: list[SourceFile], readable: dict[str, bytes], out: hipify_perl.PerlOutput,
                             options: Options, target: str, progress: Progress | None,
                             results: dict[str, FileResult]) -> None:
    packs = default_packs()
    expected = {m.cuda: m.hip for m in packs.names.values()}
    for f in cpp:
        if f.rel in results:
            continue
        try:
            results[f.rel] = _after_hipify_perl(f, readable[f.rel], out, options, target, packs, expected)
        except Exception as exc:  # one file's failure never aborts the others
            results[f.rel] = failed_file(f, options, exc)
        if progress:
            progress(1)


def _after_hipify_perl(f: SourceFile, data: bytes, out: hipify_perl.PerlOutput, options: Options, target: str,
                       packs: Packs, expected: dict[str, str]) -> FileResult:
    """One file's hipify-perl output through the C++ rules, with its renames and warnings as findings."""
    r = migrate_file(f, options, target, packs, engine_output=out.data[f.rel])
    ctx = CppContext(f.rel, data, options, packs, target)
    pairs = token_diff.renamed(data, out.data[f.rel], expected) or []
    conversions = [_conversion(ctx, packs, *t) for t in pairs]
    engine_says = out.findings[f.rel]
    ours = [x for x in r.findings if not (x.code == "CPP006" and any(f'"{x.matched}"' in e.message for e in engine_says))]
    ours = on_source(ours, ctx, LineMap(data, out.data[f.rel]))
    return capped(suppressed_apart(f, replace(r, findings=tuple(engine_says) + tuple(conversions) + tuple(ours)), options))


def on_source(findings: list[Finding], ctx: CppContext, lines: LineMap) -> list[Finding]:
    """The rules ran on hipify-perl's output, which adds an include line and may move others: each finding is put
    back on the source's line (at the same column, within that line), as the engine's own findings are."""
    out = []
    for x in findings:
        line = lines.original(x.span.line)
        if line == x.span.line or x.span.path != ctx.path or line > len(ctx.line_starts):
            out.append(x)
            continue
        begin = ctx.line_starts[line - 1]
        stop = ctx.line_starts[line] - 1 if line < len(ctx.line_starts) else len(ctx.data)
        start = min(begin + x.span.column - 1, stop)
        span = Span(x.span.path, start, min(start + x.span.end - x.span.start, stop), line, start - begin + 1)
        out.append(replace(x, span=span))
    return out


def _conversion(ctx: CppContext, packs: Packs, start: int, end: int, old: str, new: str) -> Finding:
    mapping = packs.names.get(old)
    code, family = (mapping.code, mapping.family) if mapping else ("MAP016", "other")
    fix = Fix(f"Rename to {new}", (Edit(start, end, new),), Applicability.SAFE, Outcome.APPLIED)  # hipify-perl's
    return Finding(code, RuleKind.MAPPING, Severity.INFO, f"{old} is {new} in HIP (hipify-perl)", ctx.span(start, end),
                   fix, family, old)
