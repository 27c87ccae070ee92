"""The fuzzing harness's cases (benchmarks/fuzz.py): the seeds (the samples, the corpora under tests/, the rules'
examples) and the mutations that make a case of one or two of them, drawn from a seeded random.Random."""
from __future__ import annotations

import os
import random
import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RELEASES = ("5.2", "5.7", "6.2", "6.4", "7.0")
MAX_SIZE = 256 * 1024
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
    change: tuple[str, str, float] | None = None  # (file, "delete" | "rewrite" | "empty", seconds into the run)

    def describe(self) -> dict:
        return {"number": self.number, "files": sorted(self.files), "options": self.options, "change": self.change}


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
    return [(n, d) for n, d in out if migrated_kind(n) != "other"]


def migrated_kind(name: str) -> str:
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


# What an odd file name holds (issue 28): a byte that is not UTF-8, a newline or tab, quotes, a backslash, a
# bidirectional override, spaces; or a name near the 255-byte limit of a name.
NAME_BYTES = [b"\xff", b"\xe9", b"\n", b"\t", b"\r", b'"', b"\\", b" ", b"\xe2\x80\xae", b"\xc3\xa9", b"'"]


def odd_name(rng: random.Random, rel: str) -> str:
    """`rel` with its file name made odd, its extension (so its kind) kept; os.fsdecode's str for bytes not UTF-8."""
    folder, _, name = rel.rpartition("/")
    stem, dot, ext = name.rpartition(".")
    stem, ext = (stem, dot + ext) if dot and stem else (name, "")
    raw = stem.encode()
    if rng.random() < 0.15:
        raw = (raw * (240 // max(1, len(raw)) + 1))[:240 - len(ext.encode())]
    for _ in range(rng.randint(1, 3)):
        at = rng.randint(0, len(raw))
        raw = raw[:at] + rng.choice(NAME_BYTES) + raw[at:]
    return (folder + "/" if folder else "") + os.fsdecode(raw) + ext


def make_case(rng: random.Random, number: int, pool: list[tuple[str, bytes]]) -> Case:
    files: dict[str, bytes] = {}
    donors = [d for _, d in pool]
    for _ in range(1 if rng.random() < 0.8 else 2):
        name, data = rng.choice(pool)
        if name in files:
            name = f"b/{name}"
        files[name] = mutate(rng, data, donors)
    names = random.Random(number * 1_000_003 + sum(len(d) for d in files.values()))  # apart from `rng`'s draws
    if names.random() < 0.1:
        files = {odd_name(names, rel): data for rel, data in files.items()}
    change = None
    if names.random() < 0.1:  # a file deleted, rewritten or emptied while the run is in progress (issue 28)
        change = (names.choice(sorted(files)), names.choice(("delete", "rewrite", "empty")), names.uniform(0, 0.03))
    options = {"hip_version": rng.choice(RELEASES), "launch_syntax": rng.choice(("chevron", "ggl")),
               "translate_comments": rng.random() < 0.2, "unsafe_fixes": rng.random() < 0.3}
    return Case(number, files, options, change)
