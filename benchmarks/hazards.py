"""Speed of the hazard pass, and precision/recall of the hazard rules over tests/hazard_kernels.

    python benchmarks/hazards.py [--files 200] [--lines 100000] [--rounds 3] [--keep DIR]

The corpus is the foundation benchmark's (benchmarks/translate.py: the generated corpus plus the sample
projects). Measured, best of --rounds, in this process:

- the hazard pass alone: every HAZ rule's `check` over contexts whose tree and identifier tokens were
  built beforehand (parsing and tokenising are the engine's, shared with the renames), so only the rule
  checks are timed (their lane and macro analyses included);
- the whole built-in translation of every file, with all the C++ rules and without the HAZ rules, so the
  hazard share of a migration is visible;
- the anchor: hipify-perl -quiet-warnings over the same files in one process (it has no hazard pass), and
  the ratio of our hazard pass's time to hipify-perl's whole translation.

Then precision and recall over tests/hazard_kernels: a finding on clean/ is a false positive, an expected
(code, line) of planted/ that is found is a true positive, one missed a false negative, anything else found
there a false positive. A measurement, not a test: exit 0 whatever the numbers, 2 if hipify-perl is missing
(the anchor is then skipped, the rest still printed).
"""
from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks import translate as foundation  # noqa: E402
from migrate.cpp import hipify_perl  # noqa: E402
from migrate.cpp.context import CppContext  # noqa: E402
from migrate.cpp_engine import translate  # noqa: E402
from migrate.options import Options  # noqa: E402
from migrate.packs import default_packs  # noqa: E402
from migrate.registry import default_registry  # noqa: E402

HIP = "7.0"  # the *_sync warp functions exist, so every hazard rule has work
KERNELS = REPO / "tests" / "hazard_kernels"
EXPECT = re.compile(r"^// expect: (.*)$")


def is_hazard(rule) -> bool:
    return rule.code.startswith("HAZ")


def load(root: Path, rels: list[str]) -> list[tuple[str, bytes]]:
    return [(rel, (root / rel).read_bytes()) for rel in rels]


def time_hazard_pass(files: list[tuple[str, bytes]], rounds: int) -> tuple[float, int]:
    """Best time of the HAZ rule checks alone, over fresh contexts whose tree and tokens are ready."""
    packs, options = default_packs(), Options(hip_version=HIP)
    rules = [r() for r in default_registry().cpp() if is_hazard(r)]
    best, found = float("inf"), 0
    for _ in range(rounds):
        contexts = [CppContext(rel, data, options, packs, HIP) for rel, data in files]
        for ctx in contexts:
            ctx.tree, ctx.code_tokens()  # the engine's shared work, done before the clock starts
        start = time.perf_counter()
        found = sum(len(list(rule.check(ctx))) for ctx in contexts for rule in rules)
        best = min(best, time.perf_counter() - start)
    return best, found


def time_translation(files: list[tuple[str, bytes]], rounds: int, with_hazards: bool) -> float:
    packs, options = default_packs(), Options(hip_version=HIP)
    rules = [r() for r in default_registry().cpp() if with_hazards or not is_hazard(r)]
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for rel, data in files:
            translate(rel, data, options, packs, HIP, rules)
        best = min(best, time.perf_counter() - start)
    return best


def time_perl(tool: Path, root: Path, rels: list[str], lines: int, work: Path) -> float | None:
    row = foundation.measure_perl(tool, root, rels, lines, 1, "batch-quiet", work / "perl.log")
    return row.seconds if row.ok else None


# --------------------------------------------------------------------------- precision and recall

def expected(path: Path) -> Counter:
    m = EXPECT.match(path.read_text().splitlines()[0])
    if m is None:
        return Counter()
    return Counter((code, int(line)) for code, line in (item.split() for item in m.group(1).split(",")))


def found(path: Path, rules) -> Counter:
    packs = default_packs()
    result = translate(path.name, path.read_bytes(), Options(hip_version=HIP), packs, HIP, rules)
    return Counter((f.code, f.span.line) for f in result.findings if f.code.startswith("HAZ"))


def precision_recall() -> None:
    rules = [r() for r in default_registry().cpp()]
    tp, fp, fn = Counter(), Counter(), Counter()  # by code
    clean = sorted((KERNELS / "clean").glob("*.cu"))
    planted = sorted((KERNELS / "planted").glob("*.cu"))
    for path in clean:
        for (code, _), n in found(path, rules).items():
            fp[code] += n
    for path in planted:
        want, got = expected(path), found(path, rules)
        for key in want | got:
            code = key[0]
            tp[code] += min(want[key], got[key])
            fn[code] += max(0, want[key] - got[key])
            fp[code] += max(0, got[key] - want[key])
    print(f"\nhazard kernels: {len(clean)} clean, {len(planted)} planted (tests/hazard_kernels)")
    print(f"{'code':<8} {'found':>6} {'false +':>8} {'missed':>7}")
    for code in sorted(set(tp) | set(fp) | set(fn)):
        print(f"{code:<8} {tp[code]:>6} {fp[code]:>8} {fn[code]:>7}")
    t, f, m = sum(tp.values()), sum(fp.values()), sum(fn.values())
    precision = t / (t + f) if t + f else 1.0
    recall = t / (t + m) if t + m else 1.0
    print(f"precision {precision:.1%} ({t} of {t + f} findings expected), recall {recall:.1%} ({t} of {t + m} "
          "expected findings found)")


# --------------------------------------------------------------------------- main

def benchmark(args: argparse.Namespace, work: Path) -> int:
    root = foundation.prepare(work, args.files, args.lines)
    rels = foundation.sources(root)
    lines = foundation.count_lines(root, rels)
    files = load(root, rels)
    print(f"corpus: {len(rels)} C++/CUDA files, {lines} lines (benchmarks/corpus.py + samples); target HIP {HIP}; "
          f"best of {args.rounds}")
    hazard_s, count = time_hazard_pass(files, args.rounds)
    hazard_rules = sum(1 for r in default_registry().cpp() if is_hazard(r))
    print(f"hazard pass alone ({hazard_rules} HAZ rules, parsed contexts): {hazard_s:.3f} s, "
          f"{lines / hazard_s:,.0f} lines/s, {count} findings")
    full_s = time_translation(files, args.rounds, with_hazards=True)
    bare_s = time_translation(files, args.rounds, with_hazards=False)
    print(f"whole translation with hazard rules:    {full_s:.3f} s, {lines / full_s:,.0f} lines/s")
    print(f"whole translation without hazard rules: {bare_s:.3f} s, {lines / bare_s:,.0f} lines/s")
    print(f"hazard share of the translation: {(full_s - bare_s) / full_s:.1%} by difference; "
          f"the pass alone is {hazard_s / full_s:.1%} of it")
    status = 0
    tool = hipify_perl.find()
    if tool is None:
        print("hipify-perl not found: no anchor (install it with scripts/install-toolchain)")
        status = 2
    else:
        perl_s = time_perl(tool, root, rels, lines, work)
        if perl_s is None:
            print(f"hipify-perl failed; see {work / 'perl.log'}")
        else:
            print(f"anchor: hipify-perl {hipify_perl.version(tool)} -quiet-warnings, one process, whole translation "
                  f"(no hazard pass): {perl_s:.3f} s, {lines / perl_s:,.0f} lines/s")
            print(f"our hazard pass takes {hazard_s / perl_s:.2f}x hipify-perl's whole translation time "
                  f"({lines / hazard_s:,.0f} vs {lines / perl_s:,.0f} lines/s)")
    precision_recall()
    return status


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", type=int, default=200)
    ap.add_argument("--lines", type=int, default=100_000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--keep", type=Path, help="work in this new folder and keep it (outside any git work tree)")
    args = ap.parse_args(argv)
    if args.keep:
        if args.keep.exists():
            print(f"--keep {args.keep}: already exists; name a new folder", file=sys.stderr)
            return 2
        args.keep.mkdir(parents=True)
        return benchmark(args, args.keep.resolve())
    with tempfile.TemporaryDirectory(prefix="hipmigrate-hazards-") as tmp:
        return benchmark(args, Path(tmp))


if __name__ == "__main__":
    sys.exit(main())
