"""Fuzzing harness: mutate the samples, the rule examples and the test corpora, migrate each mutant with the library
API, and count what went wrong by signature.

    python benchmarks/fuzz.py [--seconds 600 | --cases N] [--seed 1] [--save DIR] [--timeout 20]

Each case is a small tree: one or two mutated files (C++/CUDA, Python, CMake, Makefile, Dockerfile, YAML,
requirements, shell) beside a file no rule reads. It is migrated by `migrate.api.run` in one worker process (the
parent is the watchdog: a case that takes longer than --timeout is a hang, and the worker's Python stack, dumped by
faulthandler, names where it hung), rendered as text, JSON and a diff, and the output is migrated again. Checked:

- no exception (an INP008 finding, or one raised outside the per-file isolation), no hang, no dead worker;
- every input file is in the output, and the file no rule reads is byte-identical;
- a file that parsed cleanly (no INP001, INP002, INP007 or INP008) still parses, and its output is idempotent: the
  second migration changes nothing.

The signature of a failure is its class and where it happened (`exception ValueError at rules/cpp/x.py:47`,
`not idempotent: CPP002 (cpp)`), so that one defect found a thousand times counts once. --save keeps the first case
of each signature (its files, options and what was found) for replaying with `--replay DIR/N`.
`tests/test_fuzz.py` runs a short seeded run of this harness in CI.
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

RELEASES = ("5.2", "5.7", "6.2", "6.4", "7.0")
MAX_SIZE = 256 * 1024
UNTOUCHED = "NOTES.txt"
UNTOUCHED_DATA = b"cudaMalloc and <<<grid, block>>> in a file no rule reads\r\n\xff\xfe\x00 binary tail\n"
REPLACEMENT = "\ufffd".encode()  # what decoding bytes that are not UTF-8 with errors="replace" leaves
NOT_CLEAN = {"INP001", "INP002", "INP007", "INP008", "INP010"}
# Fragments a mutation inserts: the tokens rules and parsers care about, and the bytes that break naive code.
TOKENS = [
    b"<<<", b">>>", b"<<<1, 1>>>", b"#include <cuda_runtime.h>\n", b"#include \"hip/hip_runtime.h\"\n",
    b"#if defined(USE_ROCM)\n", b"#ifdef __CUDA_ARCH__\n", b"#else\n", b"#endif\n", b"#define M(x) cudaFree(x)\n",
    b"\\\n", b"// comment \\\n", b"/*", b"*/", b"\"", b"'", b"{", b"}", b"(", b")", b"[", b"]", b";", b",",
    b"__global__ ", b"__device__ ", b"__shared__ ", b"template <typename T> ", b"cudaMalloc", b"cudaMemcpyToSymbol",
    b"__shfl_down_sync(0xffffffff, v, 1)", b"threadIdx.x % 32", b"__ballot_sync(0xffffffff, p)", b"warpSize",
    b"asm volatile(\"mov.u32 %0, %%laneid;\" : \"=r\"(lane));", b"cublasSgemm", b"cudaStream_t", b"dim3",
    b"\xef\xbb\xbf", b"\xe9", b"\xff", b"\xc3\xa9", b"\r", b"\r\n", b"\t", b"\x0c", b"\0", b"    ", b"\n" * 3,
    b"import torch\n", b"torch.cuda.amp.autocast()", b"torch.hip", b"'rccl'", b"CUDAExtension", b"nvidia-smi",
    b"CUDA_VISIBLE_DEVICES=0", b"find_package(CUDA)\n", b"project(x LANGUAGES CXX CUDA)\n", b"NVCC = nvcc\n",
    b"FROM nvidia/cuda:12.1.0-devel-ubuntu22.04\n", b"nvidia.com/gpu: 1\n", b"torch==2.1.0+cu121\n", b"$(", b"${",
]


@dataclass
class Case:
    number: int
    files: dict[str, bytes]
    options: dict

    def describe(self) -> dict:
        return {"number": self.number, "files": sorted(self.files), "options": self.options}


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


# --- the seeds ---------------------------------------------------------------------------------------------------

def seeds(root: Path = ROOT) -> list[tuple[str, bytes]]:
    """(file name, bytes) of every seed: the samples' sources, the corpora under tests/, the rules' examples."""
    out: list[tuple[str, bytes]] = []
    for folder in (root / "samples", root / "tests" / "hazard_kernels", root / "tests" / "python_corpus"):
        for path in sorted(folder.rglob("*")):
            if path.is_file() and not path.is_symlink() and "expected" not in path.parts and path.stat().st_size < MAX_SIZE:
                out.append((path.name, path.read_bytes()))
    from migrate.registry import default_registry
    from migrate.rule import FileRule

    for rule in default_registry().rules:
        for example in rule.examples:
            name = (example.path or rule.example_path) if issubclass(rule, FileRule) else "example.cu"
            out.append((name.rsplit("/", 1)[-1], example.code.encode("utf-8", "surrogateescape")))
    return [(n, d) for n, d in out if _migrated_kind(n) != "other"]


def _migrated_kind(name: str) -> str:
    from migrate.filekinds import CPP_SUFFIXES, rule_kind

    if Path(name).suffix.lower() in CPP_SUFFIXES:
        return "cpp"
    return rule_kind(name) or "other"


# --- mutations -----------------------------------------------------------------------------------------------------

def _span(rng: random.Random, data: bytes) -> tuple[int, int]:
    if not data:
        return 0, 0
    start = rng.randrange(len(data))
    return start, min(len(data), start + rng.choice((1, 2, 4, 16, 64, 256)))


def _line_span(rng: random.Random, data: bytes) -> tuple[int, int]:
    starts = [0] + [m.end() for m in re.finditer(rb"\n", data)]
    i = rng.randrange(len(starts))
    j = min(len(starts) - 1, i + rng.choice((1, 1, 2, 5)))
    return starts[i], starts[j] if j > i else len(data)


def mutate(rng: random.Random, data: bytes, donors: list[bytes]) -> bytes:
    for _ in range(rng.choice((1, 1, 2, 3, 5))):
        op = rng.randrange(14)
        start, end = _line_span(rng, data) if op % 2 else _span(rng, data)
        if op in (0, 1):  # delete
            data = data[:start] + data[end:]
        elif op in (2, 3):  # duplicate
            data = data[:end] + data[start:end] * rng.choice((1, 2, 8)) + data[end:]
        elif op in (4, 5, 6):  # insert a token
            at = rng.choice((start, end))
            data = data[:at] + rng.choice(TOKENS) + data[at:]
        elif op == 7:  # random bytes
            data = data[:start] + bytes(rng.randrange(256) for _ in range(rng.randrange(1, 8))) + data[end:]
        elif op == 8:  # splice in part of another seed
            donor = rng.choice(donors)
            a, b = _line_span(rng, donor) if donor else (0, 0)
            data = data[:start] + donor[a:b] + data[start:]
        elif op == 9:  # line endings: CRLF, CR only, or mixed
            style = rng.choice((b"\r\n", b"\r"))
            data = data.replace(b"\r\n", b"\n").replace(b"\n", style) if rng.random() < 0.7 else \
                data[:start] + data[start:end].replace(b"\n", style) + data[end:]
        elif op == 10:  # truncate
            data = data[:start]
        elif op == 11:  # swap two lines
            a, b = _line_span(rng, data), _line_span(rng, data)
            if a[1] <= b[0]:
                data = data[:a[0]] + data[b[0]:b[1]] + data[a[1]:b[0]] + data[a[0]:a[1]] + data[b[1]:]
        elif op == 12:  # nest deeply
            depth = rng.choice((50, 500))
            opener, closer = rng.choice(((b"(", b")"), (b"{", b"}"), (b"[", b"]"), (b"#if 1\n", b"#endif\n")))
            data = data[:start] + opener * depth + data[start:end] + closer * depth + data[end:]
        else:  # a byte-order mark, a latin-1 byte, or a very long line
            choice = rng.randrange(3)
            if choice == 0:
                data = b"\xef\xbb\xbf" + data
            elif choice == 1:
                data = data[:start] + b"\xe9" + data[start:]
            else:
                data = data[:start] + b"x" * rng.choice((5000, 70000)) + data[start:]
        if len(data) > MAX_SIZE:
            data = data[:MAX_SIZE]
    return data


def make_case(rng: random.Random, number: int, pool: list[tuple[str, bytes]]) -> Case:
    files: dict[str, bytes] = {}
    donors = [d for _, d in pool]
    for _ in range(1 if rng.random() < 0.8 else 2):
        name, data = rng.choice(pool)
        if name in files:
            name = f"b/{name}"
        files[name] = mutate(rng, data, donors)
    options = {"hip_version": rng.choice(RELEASES), "launch_syntax": rng.choice(("chevron", "ggl")),
               "translate_comments": rng.random() < 0.2, "unsafe_fixes": rng.random() < 0.3}
    return Case(number, files, options)


# --- one case, in the worker ---------------------------------------------------------------------------------------

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
    try:
        done = api.migrate(src, out, options)
        result = done.result
    except Exception as exc:
        return [f"exception {internal.signature(exc)} (outside the files)"], False
    failures += [f"exception {f.matched}" for f in internal.failed(result.findings)]
    try:
        json.loads(formats.render("json", "migration", done.report, formats.Context("run")))
        formats.render("text", "migration", done.report, formats.Context("run", width=120))
        diff_render.unified(done.report)
    except Exception as exc:
        failures.append(f"exception {internal.signature(exc)} (rendering)")
    if (out / UNTOUCHED).read_bytes() != UNTOUCHED_DATA:
        failures.append("file no rule reads was changed")
    by_path = {r.path: r for r in result.files}
    clean_paths = []
    for rel in case.files:
        if not (out / rel).is_file():
            failures.append(f"file lost ({_migrated_kind(rel)})")
            continue
        codes = {f.code for f in by_path[rel].findings}
        if (out / rel).read_bytes().count(REPLACEMENT) > case.files[rel].count(REPLACEMENT):
            failures.append(f"bytes replaced by U+FFFD ({_migrated_kind(rel)})")
        if not codes & NOT_CLEAN:
            clean_paths.append(rel)
            broken = _parses(rel, case.files[rel]) and not _parses(rel, (out / rel).read_bytes())
            if broken:
                failures.append(f"output no longer parses ({_migrated_kind(rel)})")
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
                failures.append(f"not idempotent: {' '.join(codes)} ({_migrated_kind(rel)})")
    return failures, len(clean_paths) == len(case.files)


def _parses(rel: str, data: bytes) -> bool:
    kind = _migrated_kind(rel)
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
            tally.kinds.update(_migrated_kind(n) for n in case.files)
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
        return check_case(Case(info["number"], files, info["options"]), Path(tmp))[0]


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
