"""Differential check: the built-in engine against hipify-perl, identifier by identifier.

    python benchmarks/differential.py [DIR] [--files N --lines N]

Without DIR it migrates the samples plus a generated corpus. For every identifier of the original that either
engine renamed, it compares the two results; each disagreement gets the reason hipmigrate's answer is the
right one, or "UNEXPLAINED". Prints a table of (CUDA name, ours, hipify-perl's, context, reason, count).
"""
from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from migrate import api  # noqa: E402
from migrate.cpp import hipify_perl, token_diff  # noqa: E402
from migrate.cpp.context import CppContext  # noqa: E402
from migrate.cpp.parse import Context  # noqa: E402
from migrate.options import Options  # noqa: E402
from migrate.packs import default_packs  # noqa: E402
from migrate.stages.scan import collect  # noqa: E402

TARGET = "7.0"  # the newest HIP the packs describe: no older-form fallbacks muddy the comparison
# C++ rules that write code in place of an API HIP lacks, where hipify-perl leaves the CUDA call (CPP023: cg::reduce
# and the scans become hipmigrate_cg's; CPP030: cuDNN calls whose MIOpen counterpart takes other arguments, written
# whole; CPP031: cuDNN's algorithm queries become MIOpen's find step)
REWRITES = {"CPP023", "CPP030", "CPP031"}


@dataclass(frozen=True)
class Disagreement:
    path: str
    line: int
    cuda: str
    ours: str | None  # None: left unchanged
    theirs: str | None
    context: str
    reason: str


def reason(context: Context, cuda: str, ours: str | None, theirs: str | None, packs, in_include: bool,
           hazard: str | None = None) -> str:
    if hazard is not None:
        return f"a portability fix hipify-perl does not make ({hazard})"
    if in_include:
        return ("include path: hipmigrate names the header where Debian's and ROCm's packages install it "
                "(e.g. hipblas/hipblas.h); hipify-perl renames the file-name token")
    if context is Context.COMMENT:
        return "in a comment: hipify-perl rewrites comments; hipmigrate keeps them unless --translate-comments"
    if context is Context.STRING:
        return "in a string literal: hipify-perl rewrites text; hipmigrate never changes strings (messages, names)"
    if context in (Context.MEMBER, Context.USER_SCOPE):
        return "a member or a name of the project's own namespace: not CUDA API"
    mapping = packs.names.get(cuda)
    if ours is None and theirs is not None and cuda in packs.unsupported:
        return "no HIP counterpart known to the packs: reported as unsupported instead of renamed"
    if ours is None and theirs is not None and cuda.lower().startswith("cudnn"):
        return ("hipify-perl renames cuDNN to an old hipDNN that no ROCm release ships; MIOpen has no counterpart: "
                "reported with the MIOpen concept to use (CPP033), never renamed")
    if mapping is not None and ours == mapping.hip and theirs != ours:
        if theirs is None:
            return f"hipify-perl leaves it; HIP declares {mapping.hip} (since {mapping.since})"
        return f"hipify-perl writes {theirs}; HIP's headers declare {mapping.hip} (pack correction)"
    return "UNEXPLAINED"


def compare(root: Path) -> list[Disagreement]:
    options = Options(hip_version=TARGET)
    inventory = collect(root, options)
    originals = {f.rel: f.path.read_bytes() for f in inventory.cpp}
    _, result = api.analyse(root, options)
    ours = {r.path: r.new for r in result.files if r.new is not None}
    hazards = {(f.span.path, e.start): f"{f.code}: {f.message}" for f in result.findings
               if (f.code.startswith("HAZ") or f.code in REWRITES) and f.fix is not None for e in f.fix.edits}
    # text a rule writes whole (an argument list reordered): the names inside it are that rule's
    written = [(f.span.path, e.start, e.end, f"{f.code}: {f.message}") for f in result.findings
               if f.code in REWRITES and f.fix is not None for e in f.fix.edits if e.end > e.start]
    theirs = hipify_perl.run(hipify_perl.find(), originals, quiet=True).data
    packs = default_packs()
    expected = {m.cuda: m.hip for m in packs.names.values()}
    found = []
    for rel, old in originals.items():
        a = {(s, o): n for s, _, o, n in token_diff.renamed(old, ours[rel], expected) or []}
        b = {(s, o): n for s, _, o, n in token_diff.renamed(old, theirs[rel], expected) or []}
        ctx = CppContext(rel, old, options, packs, TARGET)
        for start, cuda in sorted(set(a) | set(b)):
            mine, other = a.get((start, cuda)), b.get((start, cuda))
            if mine == other:
                continue
            context, node, _ = ctx.locate(start, start + len(cuda))
            line_start = old.rfind(b"\n", 0, start) + 1
            in_include = old[line_start:start].lstrip().startswith(b"#") and b"include" in old[line_start:start]
            fix = hazards.get((rel, start)) or next((why for path, s, e, why in written
                                                     if path == rel and s <= start < e), None)
            found.append(Disagreement(rel, ctx.span(start, start).line, cuda, mine, other, context.value,
                                      reason(context, cuda, mine, other, packs, in_include, fix)))
    return found


def corpus_with_samples(work: Path, files: int, lines: int) -> Path:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from corpus import generate

    generate(work / "corpus", files=files, lines=lines)
    for src in sorted((ROOT / "samples").glob("*/src")):
        shutil.copytree(src, work / "samples" / src.parent.name)
    return work


def table(found: list[Disagreement]) -> str:
    counts = Counter((d.cuda, d.ours, d.theirs, d.context, d.reason) for d in found)
    lines = [f"{'count':>5}  {'CUDA':28} {'hipmigrate':28} {'hipify-perl':28} {'context':8} reason"]
    for (cuda, ours, theirs, context, why), n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0][0])):
        lines.append(f"{n:>5}  {cuda:28} {ours or '(kept)':28} {theirs or '(kept)':28} {context:8} {why}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", nargs="?", type=Path)
    parser.add_argument("--files", type=int, default=200)
    parser.add_argument("--lines", type=int, default=100_000)
    args = parser.parse_args(argv)
    if hipify_perl.find() is None:
        print("hipify-perl not found: run scripts/install-toolchain", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="hipmigrate-diff-") as tmp:
        root = args.dir or corpus_with_samples(Path(tmp), args.files, args.lines)
        found = compare(root)
    print(table(found))
    unexplained = sum(1 for d in found if d.reason == "UNEXPLAINED")
    print(f"\n{len(found)} disagreements, {unexplained} unexplained")
    return 1 if unexplained else 0


if __name__ == "__main__":
    sys.exit(main())
