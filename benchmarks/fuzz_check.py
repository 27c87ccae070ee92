"""One fuzzing case, checked (benchmarks/fuzz.py runs it in a worker process): migrated with the library API,
rendered as text, JSON and a diff, the file no rule reads compared, what parsed cleanly parsed again and migrated a
second time."""
from __future__ import annotations

import json
import os
import threading
from pathlib import Path

from benchmarks.fuzz_cases import Case, migrated_kind

UNTOUCHED = "NOTES.txt"
UNTOUCHED_DATA = b"cudaMalloc and <<<grid, block>>> in a file no rule reads\r\n\xff\xfe\x00 binary tail\n"
REPLACEMENT = "\ufffd".encode()  # what decoding bytes that are not UTF-8 with errors="replace" leaves
NOT_CLEAN = {"INP001", "INP002", "INP007", "INP008", "INP010"}


def check_case(case: Case, scratch: Path) -> tuple[list[str], bool]:
    """The failure signatures of one case (none: it passed), and whether every file parsed cleanly."""
    from migrate import api, internal
    from migrate.fixing import allowed
    from migrate.model import FileStatus
    from migrate.options import Options
    from migrate import formats
    from migrate.render import diff as diff_render

    src, out = scratch / "src", scratch / "out"
    for rel, data in {**case.files, UNTOUCHED: UNTOUCHED_DATA}.items():
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        (src / rel).write_bytes(data)
    options = Options(jobs=1, **case.options)
    failures: list[str] = []
    timer = _change_later(case, src)
    try:
        done = api.migrate(src, out, options)
        result = done.result
    except Exception as exc:
        return [f"exception {internal.signature(exc)} (outside the files)"], False
    finally:
        if timer is not None:
            timer.cancel()
            timer.join()
    failures += [f"exception {f.matched}" for f in internal.failed(result.findings)]
    try:
        json.loads(formats.render("json", "migration", done.report, formats.Context("run")))
        text = formats.render("text", "migration", done.report, formats.Context("run", width=120, codes=api.codes()))
        diff = "".join(diff_render.unified(done.report))
        if any(rel in text + diff for rel in case.files if "\n" in rel):  # printed as it is, so across lines
            failures.append("a file name split a line of the text output")
    except Exception as exc:
        failures.append(f"exception {internal.signature(exc)} (rendering)")
    if (out / UNTOUCHED).read_bytes() != UNTOUCHED_DATA:
        failures.append("file no rule reads was changed")
    by_path = {r.path: r for r in result.files}
    clean_paths = []
    for rel in case.files:
        changed = case.change is not None and case.change[0] == rel
        if changed and (rel not in by_path or "INP012" in {f.code for f in by_path[rel].findings}):
            continue  # deleted before the tree was listed, or reported as vanished or changed: what it should be
        if not (out / rel).is_file():
            failures.append(f"file lost{' after a change mid-run' if changed else ''} ({migrated_kind(rel)})")
            continue
        if changed:
            continue  # read before or after the change: either is right, and its source is no longer the case's
        codes = {f.code for f in by_path[rel].findings}
        if (out / rel).read_bytes().count(REPLACEMENT) > case.files[rel].count(REPLACEMENT):
            failures.append(f"bytes replaced by U+FFFD ({migrated_kind(rel)})")
        if not codes & NOT_CLEAN:
            clean_paths.append(rel)
            broken = _parses(rel, case.files[rel]) and not _parses(rel, (out / rel).read_bytes())
            if broken:
                failures.append(f"output no longer parses ({migrated_kind(rel)})")
    if clean_paths:
        try:
            _, again = api.analyse(out, options)
        except Exception as exc:
            return failures + [f"exception {internal.signature(exc)} (second run)"], False
        second = {r.path: r for r in again.files}
        for rel in clean_paths:
            r = second[rel]
            if r.status is FileStatus.MIGRATED:
                codes = sorted({f.code for f in r.findings if allowed(f, options)}) or ["no fix"]
                failures.append(f"not idempotent: {' '.join(codes)} ({migrated_kind(rel)})")
    return failures, len(clean_paths) == len(case.files)


def _change_later(case: Case, src: Path) -> threading.Timer | None:
    """Start the case's change of one source file, made `seconds` into the run from another thread."""
    if case.change is None:
        return None
    rel, how, seconds = case.change
    path = src / rel

    def change() -> None:
        if how == "delete":
            os.unlink(path)
        else:
            path.write_bytes(b"" if how == "empty" else b"// rewritten mid-run\n" + case.files[rel])

    timer = threading.Timer(seconds, change)
    timer.start()
    return timer


def _parses(rel: str, data: bytes) -> bool:
    kind = migrated_kind(rel)
    if kind == "cpp":
        from migrate.cpp import parse

        from migrate.newlines import LONE_CR

        body = data[3:] if data.startswith(b"\xef\xbb\xbf") else data
        if body.startswith(b"\xef\xbb\xbf"):
            return False  # a second byte-order mark: compilers skip only the first
        return not parse.parse(LONE_CR.sub(b"\n", body)).root_node.has_error  # a compiler takes a lone CR as a break
    if kind == "python":
        try:
            compile(data, rel, "exec", dont_inherit=True)
        except (SyntaxError, ValueError):
            return False
    return True
