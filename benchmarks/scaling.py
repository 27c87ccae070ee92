"""Time and peak memory of migrating one file, from 10 KB to 20 MB, on both sides of the size limit: every shape,
one very long line included, must take time linear in its size.

    python benchmarks/scaling.py [--sizes 10K,100K,1M,3M,5M,20M] [--shapes ...] [--run] [--check]

Shapes: `realistic`, one file of the generated corpus's code (benchmarks/corpus.py, every name fresh); `pasted`, the
samples' sources pasted again and again (the same kernels and includes over and over); `one-line`, CUDA calls on a
single line inside one function (the shape that was quadratic); `includes`, a block of `#include` lines,
conditionals and a kernel repeated (the include rules read every include); `macros`, multi-line macros full of CUDA
calls (every identifier in a macro body is classified); `cmake` and `make`, build files of repeated CUDA targets and
flags. Each size of each shape is migrated in a fresh process (`_migrate_one`, the whole per-file path: every rule,
the fixes applied, the size policy: a C++ file over --max-file-size, 4 MiB, is renamed only, a build file over it
copied), and the table gives the mode (`full` analysis, `renamed` only, `copied`), the seconds, microseconds per line
and per KB, and the process's peak resident memory above what it held once the rules and packs were loaded (and
three sample files migrated, so that what the rules load on first use is not counted as the file's), also as a
multiple of the file's size. "Above what it held" is the resident memory once the warm-up's garbage is collected and
glibc's free heap given back, with the kernel's high-water mark reset there (/proc/self/clear_refs).

The last lines give, per shape and mode, the spread of µs per KB between its sizes from 100K up (below that the
fixed cost of a file dominates) and of µs per line where a shape has lines to count (not one-line); a copied file
(a build file over the limit) is left out, its cost being fixed; `--check` exits 1 when a spread
is over 2x. With `--run`, each size is also migrated as a user meets it: `api.migrate` on a folder holding the file
(output tree, report model, line diff, .hipmigrate/ state), and the last columns give that run's seconds and peak.
"""
from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

SIZES = {"10K": 10_000, "100K": 100_000, "1M": 1_000_000, "3M": 3_000_000, "5M": 5_000_000, "20M": 20_000_000}
SHAPES = ("realistic", "pasted", "one-line", "includes", "macros", "cmake", "make")
SPREAD = 2.0  # the most a shape's µs per KB (and per line) may vary between sizes of one mode
SPREAD_FROM = 90_000  # sizes below (10K) are dominated by a file's fixed cost; a "100K" file of whole lines is a little less
NAMES = {"cmake": "CMakeLists.txt", "make": "Makefile"}
# migrated once before each measurement, so that what is loaded on first use does not count as the file's
WARM_UP = tuple(ROOT / "samples" / path for path in ("cudnn_conv/src/cudnn_conv.cu", "cudnn_conv/src/Makefile",
                                                     "block_reduce/src/CMakeLists.txt"))


def realistic(size: int) -> bytes:
    from benchmarks.corpus import build_file

    rng = random.Random(1)
    text = build_file(rng, set(), "big.cu", ".cu", max(50, size // 38), [])
    return text.encode()[:size]


def repeated(block: bytes, size: int, head: bytes = b"") -> bytes:
    """`head`, then `block` again and again: `size` bytes."""
    return (head + block * (size // len(block) + 1))[:size]


def pasted(size: int) -> bytes:
    parts = [p.read_bytes() for p in sorted((ROOT / "samples").glob("*/src/**/*")) if p.suffix in (".cu", ".cuh")]
    return repeated(b"\n".join(parts), size)


# shape -> (its first lines, the block repeated after them)
BLOCKS = {
    "includes": (b"", b'#include <cuda_runtime.h>\n#include "common.cuh"\n#include <cublas_v2.h>\n#if defined(USE_FP16)\n'
                      b"#include <cuda_fp16.h>\n#endif\n#include <cooperative_groups.h>\n"
                      b"__global__ void k(float* a) { a[threadIdx.x] = 0; }\n"),
    "macros": (b"", b"#define CHECKED_COPY(dst, src, n) do {          \\\n"
                    b"    cudaError_t e_ = cudaMemcpy(dst, src, n,    \\\n"
                    b"                   cudaMemcpyHostToDevice);     \\\n"
                    b"    if (e_ != cudaSuccess) cudaDeviceReset();   \\\n"
                    b"    cudaStreamSynchronize(0); } while (0)\n"
                    b"void f(float* d, const float* h) { CHECKED_COPY(d, h, 4); }\n"),
    "cmake": (b"cmake_minimum_required(VERSION 3.18)\nproject(p LANGUAGES CXX CUDA)\n",
              b"find_package(CUDAToolkit REQUIRED)\nadd_library(k STATIC k.cu)\n"
              b"set_target_properties(k PROPERTIES CUDA_ARCHITECTURES 80 CUDA_SEPARABLE_COMPILATION ON)\n"
              b'target_compile_options(k PRIVATE "$<$<COMPILE_LANGUAGE:CUDA>:--use_fast_math -lineinfo>")\n'
              b"target_link_libraries(k PRIVATE CUDA::cudart CUDA::cublas)\n"),
    "make": (b"CUDA_PATH ?= /usr/local/cuda\nNVCC := $(CUDA_PATH)/bin/nvcc\nNVCCFLAGS := -O3 -arch=sm_80\n",
             b"app: main.o k.o\n\t$(NVCC) $(NVCCFLAGS) -o app main.o k.o -L$(CUDA_PATH)/lib64 -lcudart -lcublas\n"
             b"k.o: k.cu\n\t$(NVCC) $(NVCCFLAGS) -Xcompiler -fPIC -c k.cu -o k.o\n"),
}


def one_line(size: int) -> bytes:
    """CUDA calls one after another on a single line, in one function."""
    head, tail = b"#include <cuda_runtime.h>\nvoid f(float* p, float* d, float* h, int n) { ", b" }\n"
    call = b"cudaMalloc((void**)&p, 4); cudaMemcpy(d, h, n, cudaMemcpyHostToDevice); "
    return head + call * max(1, (size - len(head) - len(tail)) // len(call)) + tail


def make_file(shape: str, size: int) -> bytes:
    if shape == "one-line":
        return one_line(size)
    if shape == "realistic":
        return realistic(size)
    if shape == "pasted":
        return pasted(size)
    head, block = BLOCKS[shape]
    data = repeated(block, size, head)
    # a build file ends at a whole line: a command cut short would be an input problem (INP001) of the benchmark's own
    return data[:data.rfind(b"\n") + 1] if shape in NAMES else data


def _status(field: str) -> int | None:
    """A field of /proc/self/status in KB (VmRSS, VmHWM), None where there is none."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def settled() -> int:
    """The process's resident KB once what the warm-up freed is given back to the system (the garbage collected,
    glibc's free heap trimmed) and the high-water mark reset to it: memory freed earlier and kept by the allocators
    would otherwise hide the file's use of it. Without /proc, the high-water mark so far (ru_maxrss)."""
    import ctypes
    import gc

    gc.collect()
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")  # reset VmHWM to VmRSS (Linux 4.0 and later)
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return _status("VmRSS") or resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def high_water() -> int:
    """The process's peak resident KB since `settled`."""
    return _status("VmHWM") or resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def child(path: Path, name: str) -> dict:
    """Migrate one file in this process and measure it (the --child side)."""
    from migrate.cpp.context import candidates_for
    from migrate.options import Options
    from migrate.packs import default_packs
    from migrate.registry import default_registry
    from migrate.stages import rewrite
    from migrate.filekinds import classify

    candidates_for(default_packs())
    default_registry()
    with rewrite.tuned():  # once, unmeasured: what the rules load on first use (tables, grammars) is loaded
        for sample in WARM_UP:
            rewrite._migrate_one(rewrite.SourceFile(sample.name, sample, classify(sample, sample.name)),
                                 Options(hip_version="6.2"), "6.2")
    kind = classify(path, name)
    before = settled()
    started = time.perf_counter()
    with rewrite.tuned():
        result = rewrite._migrate_one(rewrite.SourceFile(name, path, kind), Options(hip_version="6.2"), "6.2")
    seconds = time.perf_counter() - started
    peak = high_water()
    codes = sorted({f.code for f in result.findings if f.code.startswith("INP")})
    mode = "renamed" if "INP011" in codes else "copied" if "INP005" in codes else "full"
    return {"seconds": seconds, "lines": result.lines, "findings": len(result.findings), "extra_kb": peak - before,
            "base_kb": before, "problems": codes, "mode": mode}


def whole_run(path: Path, name: str) -> dict:
    """`hipmigrate run` on a folder holding the file, in this process (the --child-run side)."""
    import shutil

    from migrate import api
    from migrate.options import Options

    with tempfile.TemporaryDirectory(prefix="hipmigrate-scaling-run-") as tmp:
        warm = Path(tmp) / "warm"
        for sample in WARM_UP:
            (warm / sample.parent.parent.name).mkdir(parents=True, exist_ok=True)
            shutil.copy(sample, warm / sample.parent.parent.name / sample.name)
        api.migrate(warm, Path(tmp) / "warm-out", Options(hip_version="6.2"))
        src = Path(tmp) / "src"
        src.mkdir()
        shutil.copy(path, src / name)
        before = settled()
        started = time.perf_counter()
        api.migrate(src, Path(tmp) / "out", Options(hip_version="6.2"))
        seconds = time.perf_counter() - started
        peak = high_water()
    return {"seconds": seconds, "extra_kb": peak - before}


def measure(shape: str, size: int, whole: bool = False) -> dict:
    data = make_file(shape, size)
    name = NAMES.get(shape, "big.cu")
    with tempfile.TemporaryDirectory(prefix="hipmigrate-scaling-") as tmp:
        path = Path(tmp) / name
        path.write_bytes(data)
        out = subprocess.run([sys.executable, __file__, "--child", str(path), name], capture_output=True, text=True,
                             check=True, cwd=ROOT)
        doc = json.loads(out.stdout.strip().splitlines()[-1])
        if whole:
            out = subprocess.run([sys.executable, __file__, "--child-run", str(path), name], capture_output=True,
                                 text=True, check=True, cwd=ROOT)
            doc["run"] = json.loads(out.stdout.strip().splitlines()[-1])
    doc["bytes"] = len(data)
    return doc


def spreads(rows: list[tuple[str, str, dict]]) -> list[tuple[str, str, str, float]]:
    """(shape, mode, unit, largest / smallest) of µs per KB and per line over the sizes from SPREAD_FROM up."""
    groups: dict[tuple[str, str], list[dict]] = {}
    for shape, _, r in rows:
        if r["bytes"] >= SPREAD_FROM and r["mode"] != "copied":  # a copy reads nothing: its cost is fixed
            groups.setdefault((shape, r["mode"]), []).append(r)
    out = []
    for (shape, mode), rs in groups.items():
        if len(rs) < 2:
            continue
        per_kb = [r["seconds"] / r["bytes"] for r in rs]
        out.append((shape, mode, "KB", max(per_kb) / min(per_kb)))
        if min(r["lines"] for r in rs) >= 100:  # a shape with lines to count (not one-line)
            per_line = [r["seconds"] / r["lines"] for r in rs]
            out.append((shape, mode, "line", max(per_line) / min(per_line)))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default=",".join(SIZES))
    parser.add_argument("--shapes", default=",".join(SHAPES))
    parser.add_argument("--run", action="store_true", help="also measure the whole run (output tree, state, diff)")
    parser.add_argument("--check", action="store_true", help=f"exit 1 when a spread is over {SPREAD:g}x")
    parser.add_argument("--child", nargs=2, metavar=("PATH", "NAME"), help=argparse.SUPPRESS)
    parser.add_argument("--child-run", nargs=2, metavar=("PATH", "NAME"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child(Path(args.child[0]), args.child[1])))
        return 0
    if args.child_run:
        print(json.dumps(whole_run(Path(args.child_run[0]), args.child_run[1])))
        return 0
    print(f"{'shape':<10} {'size':>5} {'mode':<7} {'lines':>9} {'findings':>9} {'seconds':>8} {'us/line':>9} "
          f"{'us/KB':>7} {'extra MB':>9} {'x size':>7}" + (f" {'run s':>7} {'run MB':>7}" if args.run else "")
          + "  input problems")
    rows = []
    for shape in args.shapes.split(","):
        for label in args.sizes.split(","):
            r = measure(shape, SIZES[label], args.run)
            rows.append((shape, label, r))
            extra = r["extra_kb"] / 1024
            whole = f" {r['run']['seconds']:>7.2f} {r['run']['extra_kb'] / 1024:>7.1f}" if args.run else ""
            print(f"{shape:<10} {label:>5} {r['mode']:<7} {r['lines']:>9} {r['findings']:>9} {r['seconds']:>8.2f} "
                  f"{r['seconds'] / max(1, r['lines']) * 1e6:>9.1f} {r['seconds'] / r['bytes'] * 1e9:>7.1f} "
                  f"{extra:>9.1f} {extra * 2**20 / r['bytes']:>7.2f}{whole}  {' '.join(r['problems']) or '-'}",
                  flush=True)
    worst = 1.0
    for shape, mode, unit, spread in spreads(rows):
        worst = max(worst, spread)
        print(f"spread of us/{unit:<4} {shape:<10} {mode:<7} {spread:5.2f}x" + ("  over 2x" if spread > SPREAD else ""))
    return 1 if args.check and worst > SPREAD else 0


if __name__ == "__main__":
    sys.exit(main())
