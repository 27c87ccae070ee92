"""A deterministic synthetic CUDA corpus for benchmarks.

    python benchmarks/corpus.py OUT_DIR [--files 200] [--lines 100000] [--seed 1] [--check]

Each file is assembled from small code templates (kernels in corpus_device.py, host runtime code and library calls
in corpus_host.py, headers and text in corpus_text.py, all written with corpus_builder.py) whose identifiers, types
and sizes are drawn from a seeded random.Random, so the same arguments always give the same bytes. --check parses
every file with tree-sitter-cuda and reports files with ERROR nodes.
"""
from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.corpus_builder import CHECK_MACROS, NOUNS, VERBS, FileBuilder, check_macro  # noqa: E402
from benchmarks.corpus_device import (block_reduce, device_helper, dynamic_shared, half_precision,  # noqa: E402
                                      histogram, stencil, template_kernel, transpose, warp_reduce)
from benchmarks.corpus_host import (cublas_gemm, cufft_1d, curand_fill, cusparse_setup, device_buffer,  # noqa: E402
                                    device_query, driver_api, memset_sync, nccl_allreduce, pinned_host,
                                    stream_pipeline)
from benchmarks.corpus_text import api_macros, commentary, declarations, inline_helpers, messages  # noqa: E402

MODULES = ("core", "solver", "physics", "imaging", "linalg", "fft", "random", "sparse", "comm", "util")
KINDS = ((".cu", 40), (".cuh", 15), (".cpp", 30), (".h", 15))
STD_HEADERS = ("<cstdio>", "<cstdlib>", "<cstddef>", "<vector>")
CUDA_HEADERS = ("<cuda.h>", "<cuda_runtime.h>", "<cuda_fp16.h>", "<cublas_v2.h>", "<curand.h>", "<cufft.h>",
                "<cusparse.h>", "<nccl.h>")

BLOCKS = {
    ".cu": (warp_reduce, block_reduce, histogram, transpose, half_precision, dynamic_shared, template_kernel,
            stencil, stream_pipeline, device_query, memset_sync, cublas_gemm, curand_fill, messages, commentary),
    ".cuh": (warp_reduce, block_reduce, half_precision, template_kernel, device_helper, device_buffer,
             inline_helpers, api_macros, commentary),
    ".cpp": (device_query, memset_sync, pinned_host, driver_api, cublas_gemm, curand_fill, cufft_1d,
             cusparse_setup, nccl_allreduce, messages, commentary),
    ".h": (declarations, api_macros, inline_helpers, device_buffer, messages, commentary),
}


def render(f: FileBuilder, rel: str, ext: str, local_headers: list[str]) -> str:
    exit_call = f.pick("std::exit(EXIT_FAILURE)", "std::abort()")
    needed = f.headers | ({"<cstdio>", "<cstdlib>"} if f.checks else set())
    out = [f"// {rel}: synthetic benchmark source; uses the CUDA runtime (cudaMalloc, cudaMemcpy, streams).\n"]
    if ext in (".h", ".cuh"):
        out.append("#pragma once\n")
    out.append("".join(f"#include {h}\n" for h in STD_HEADERS if h in needed))
    out.append("".join(f"#include {h}\n" for h in CUDA_HEADERS if h in f.headers))
    out.append("".join(f'#include "{h}"\n' for h in local_headers))
    out.extend(check_macro(name, exit_call) for name in CHECK_MACROS if name in f.checks)
    namespace = f.names.fresh() if f.rng.random() < 0.6 else None
    if namespace:
        out.append(f"namespace {namespace} {{\n")
    out.extend(f.blocks)
    if namespace:
        out.append(f"}}  // namespace {namespace}\n")
    return "\n".join(part for part in out if part)


def build_file(rng: random.Random, used: set[str], rel: str, ext: str, target: int, local_headers: list[str]) -> str:
    f = FileBuilder(rng, used)
    while f.lines() < target or not f.blocks:
        rng.choice(BLOCKS[ext])(f)
    return render(f, rel, ext, local_headers)


def plan(rng: random.Random, files: int, lines: int) -> list[tuple[str, str, int]]:
    """(relative path, extension, line target) of every file; the targets add up to at least `lines`."""
    exts = rng.choices([e for e, _ in KINDS], weights=[w for _, w in KINDS], k=files)
    weights = [rng.uniform(0.4, 1.6) for _ in range(files)]
    scale = lines / sum(weights)
    out = []
    for i, (ext, w) in enumerate(zip(exts, weights)):
        rel = f"{MODULES[i % len(MODULES)]}/{rng.choice(VERBS)}_{rng.choice(NOUNS)}_{i:03d}{ext}"
        out.append((rel, ext, int(w * scale) + 1))
    return out


def local_includes(layout: list[tuple[str, str, int]], rel: str, ext: str) -> list[str]:
    """Up to two headers of the same module: .h ones, and .cuh ones too in .cu files."""
    allowed = {".cu": (".h", ".cuh"), ".cuh": (".h",), ".cpp": (".h",)}.get(ext, ())
    folder = Path(rel).parent
    return [Path(h).name for h, e, _ in layout if e in allowed and Path(h).parent == folder][:2]


def generate(out_dir: Path, files: int = 200, lines: int = 100_000, seed: int = 1) -> list[Path]:
    """Write the corpus under `out_dir`; the same arguments always write the same bytes."""
    rng = random.Random(seed)
    layout = plan(rng, files, lines)
    written, used = [], set()
    for rel, ext, target in layout:
        file_rng = random.Random(f"{seed}:{rel}")
        path = out_dir / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        text = build_file(file_rng, used, rel, ext, target, local_includes(layout, rel, ext))
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def parse_errors(paths: list[Path]) -> list[Path]:
    """The files in which tree-sitter-cuda finds ERROR or missing nodes."""
    import tree_sitter
    import tree_sitter_cuda
    parser = tree_sitter.Parser(tree_sitter.Language(tree_sitter_cuda.language()))
    return [p for p in paths if parser.parse(p.read_bytes()).root_node.has_error]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out_dir", type=Path)
    ap.add_argument("--files", type=int, default=200)
    ap.add_argument("--lines", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--check", action="store_true", help="parse every file with tree-sitter-cuda")
    args = ap.parse_args(argv)
    paths = generate(args.out_dir, args.files, args.lines, args.seed)
    total = sum(p.read_bytes().count(b"\n") for p in paths)
    print(f"{len(paths)} files, {total} lines in {args.out_dir}")
    if args.check:
        bad = parse_errors(paths)
        print(f"tree-sitter-cuda: {len(paths) - len(bad)} of {len(paths)} files parse without ERROR nodes")
        for p in bad:
            print(f"  parse error: {p}")
        return 1 if bad else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
