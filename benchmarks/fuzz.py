"""Fuzzing harness: mutate the samples, the rule examples and the test corpora, migrate each mutant with the library
API, and count what went wrong by signature.

    python benchmarks/fuzz.py [--seconds 600 | --cases N] [--seed 1] [--save DIR] [--timeout 20]

Each case is a small tree: one or two mutated files (C++/CUDA, Python, CMake, Makefile, Dockerfile, YAML,
requirements, shell) beside a file no rule reads. It is migrated by `migrate.api.run` in one worker process (the
parent is the watchdog: a case that takes longer than --timeout is a hang, and the worker's Python stack, dumped by
faulthandler, names where it hung), rendered as text, JSON and a diff, and the output is migrated again. Checked:

- no exception (an INP008 finding, or one raised outside the per-file isolation), no hang, no dead worker;
- every input file is in the output, and the file no rule reads is byte-identical;
- a file that the case deletes, rewrites or empties while the run is in progress (one case in ten) is in the output,
  or has INP012 saying it vanished or changed, or was never listed; never a crash or a "copied" file that is absent;
- a file that parsed cleanly (no INP001, INP002, INP007 or INP008) still parses, and its output is idempotent: the
  second migration changes nothing.

The signature of a failure is its class and where it happened (`exception ValueError at rules/cpp/x.py:47`,
`not idempotent: CPP002 (cpp)`), so that one defect found a thousand times counts once. --save keeps the first case
of each signature (its files, options and what was found) for replaying with `--replay DIR/N`.
`tests/test_fuzz.py` runs a short seeded run of this harness in CI. The cases are made in fuzz_cases.py and checked in
fuzz_check.py; this module runs them, watches the worker and counts.
"""
from __future__ import annotations

import argparse
import faulthandler
import json
import multiprocessing
import random
import re
import shutil
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.fuzz_cases import Case, make_case, migrated_kind, seeds  # noqa: E402
from benchmarks.fuzz_check import check_case  # noqa: E402


@dataclass
class Tally:
    cases: int = 0
    seconds: float = 0.0
    kinds: Counter = field(default_factory=Counter)
    outcomes: Counter = field(default_factory=Counter)  # "ok", "ok (not clean)", and the failure signatures
    first: dict[str, int] = field(default_factory=dict)  # signature -> number of its first case

    @property
    def failures(self) -> dict[str, int]:
        return {s: n for s, n in self.outcomes.items() if not s.startswith("ok")}


# --- the worker -----------------------------------------------------------------------------------------------------

def _worker(connection, scratch: str, timeout: float) -> None:
    import warnings

    warnings.simplefilter("ignore")  # Python's compiler warns about odd literals in the mutants
    dump = open(Path(scratch) / "stack.txt", "w")
    while True:
        case = connection.recv()
        if case is None:
            return
        folder = Path(tempfile.mkdtemp(dir=scratch))
        faulthandler.dump_traceback_later(timeout, exit=True, file=dump)
        try:
            answer = check_case(case, folder)
        except BaseException as exc:  # the harness's own code: still a finding, never the end of the run
            from migrate import internal

            answer = ([f"exception {internal.signature(exc)} (harness)"], False)
        faulthandler.cancel_dump_traceback_later()
        shutil.rmtree(folder, ignore_errors=True)
        connection.send(answer)


# --- the parent: cases, watchdog, tally ----------------------------------------------------------------------------

class Runner:
    def __init__(self, timeout: float):
        self.timeout = timeout
        self.scratch = Path(tempfile.mkdtemp(prefix="hipmigrate-fuzz-"))
        self.process = None
        self.connection = None

    def _start(self) -> None:
        context = multiprocessing.get_context("fork")
        self.connection, theirs = context.Pipe()
        (self.scratch / "stack.txt").write_text("")
        self.process = context.Process(target=_worker, args=(theirs, str(self.scratch), self.timeout), daemon=True)
        self.process.start()

    def run(self, case: Case) -> tuple[list[str], bool]:
        if self.process is None or not self.process.is_alive():
            self._start()
        self.connection.send(case)
        if self.connection.poll(self.timeout + 10):
            try:
                return self.connection.recv()
            except EOFError:
                pass
        self.process.join(5)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        stack = (self.scratch / "stack.txt").read_text(errors="replace")
        code, self.process = self.process.exitcode, None
        if "Timeout" in stack or "Thread" in stack:
            return [f"hang (over {self.timeout:g} s) at {_stack_place(stack)}"], False
        return [f"worker died (signal {-code})" if code and code < 0 else f"worker died (exit status {code})"], False

    def close(self) -> None:
        if self.process is not None and self.process.is_alive():
            self.connection.send(None)
            self.process.join(5)
            if self.process.is_alive():
                self.process.kill()
        shutil.rmtree(self.scratch, ignore_errors=True)


def _stack_place(stack: str) -> str:
    """The innermost frame in hipmigrate's code of the main thread's stack that faulthandler dumped."""
    frames = re.findall(r'File "([^"]+)", line (\d+)', stack)
    for name, line in frames:  # faulthandler lists the most recent call first
        path = Path(name)
        if ROOT in path.parents and "site-packages" not in name and "benchmarks" not in path.parts:
            return f"{path.relative_to(ROOT).as_posix()}:{line}"
    return "unknown place"


def fuzz(seed: int = 1, cases: int | None = None, seconds: float | None = None, timeout: float = 20.0,
         save: Path | None = None, progress=None) -> Tally:
    """Run cases until `cases` are done or `seconds` have passed (whichever is given; both: the first reached)."""
    rng = random.Random(seed)
    pool = seeds()
    tally = Tally()
    runner = Runner(timeout)
    started = time.monotonic()
    try:
        while (cases is None or tally.cases < cases) and (seconds is None or time.monotonic() - started < seconds):
            case = make_case(rng, tally.cases, pool)
            found, clean = runner.run(case)
            tally.cases += 1
            tally.kinds.update(migrated_kind(n) for n in case.files)
            for signature in found or ["ok" if clean else "ok (not clean: parse errors or conflicts)"]:
                tally.outcomes[signature] += 1
                if signature not in tally.first:
                    tally.first[signature] = case.number
                    if save is not None and not signature.startswith("ok"):
                        _save(save, case, signature)
            if progress:
                progress(tally)
    finally:
        runner.close()
        tally.seconds = time.monotonic() - started
    return tally


def _save(folder: Path, case: Case, signature: str) -> None:
    where = folder / f"{case.number:06d}"
    for rel, data in case.files.items():
        (where / "src" / rel).parent.mkdir(parents=True, exist_ok=True)
        (where / "src" / rel).write_bytes(data)
    (where / "case.json").write_text(json.dumps({**case.describe(), "signature": signature}, indent=2) + "\n")


def replay(folder: Path) -> list[str]:
    """The failures of a saved case, run again in this process."""
    info = json.loads((folder / "case.json").read_text())
    files = {p.relative_to(folder / "src").as_posix(): p.read_bytes()
             for p in sorted((folder / "src").rglob("*")) if p.is_file()}
    with tempfile.TemporaryDirectory() as tmp:
        change = tuple(info["change"]) if info.get("change") else None
        return check_case(Case(info["number"], files, info["options"], change), Path(tmp))[0]


def report(tally: Tally) -> str:
    rate = tally.cases / tally.seconds if tally.seconds else 0.0
    kinds = ", ".join(f"{k} {n}" for k, n in tally.kinds.most_common())
    lines = [f"{tally.cases} cases in {tally.seconds:.0f} s ({rate:.1f}/s); files by kind: {kinds}",
             f"{'count':>7}  {'first case':>10}  signature"]
    for signature, count in sorted(tally.outcomes.items(), key=lambda t: (not t[0].startswith("ok"), -t[1], t[0])):
        lines.append(f"{count:>7}  {tally.first[signature]:>10}  {signature}")
    lines.append(f"failures: {sum(tally.failures.values())} in {len(tally.failures)} signature(s)")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=None, help="run for this long (default 600 without --cases)")
    parser.add_argument("--cases", type=int, default=None, help="run this many cases")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=20.0, help="seconds a case may take before it is a hang")
    parser.add_argument("--save", type=Path, default=None, help="keep the first case of each failure signature here")
    parser.add_argument("--replay", type=Path, default=None, help="run one saved case again and print its failures")
    args = parser.parse_args(argv)
    if args.replay:
        found = replay(args.replay)
        print("\n".join(found) or "passes now")
        return 1 if found else 0
    seconds = args.seconds if args.seconds is not None or args.cases is not None else 600.0
    last = [time.monotonic()]

    def progress(tally: Tally) -> None:
        if time.monotonic() - last[0] > 60:
            last[0] = time.monotonic()
            print(f"... {tally.cases} cases, {sum(tally.failures.values())} failures", file=sys.stderr, flush=True)

    tally = fuzz(args.seed, args.cases, seconds, args.timeout, args.save, progress)
    print(report(tally))
    return 1 if tally.failures else 0


if __name__ == "__main__":
    sys.exit(main())
