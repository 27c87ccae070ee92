"""CUDA side: the candidate CUDA names of the toolkit and wheel headers, and CUDA's bfloat16 functions HIP shares."""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

from .families import FAMILY_ORDER, LEGACY_HEADERS, header_family
from .fetch import HeaderSet, version_key
from .lexer import read_text
from .scanner import KIND_RANK, Scanner


# CUDA names that can only be CUDA API (used to list unconverted names as unsupported)
CUDA_API = re.compile(
    r"^(cuda[A-Z_]|cu[A-Z]|CU_|CUDA_|CUDART_|cublas|CUBLAS|curand|CURAND_|cufft|CUFFT_|cusparse|CUSPARSE_|"
    r"cusolver|CUSOLVER|nccl|NCCL_|nvrtc|NVRTC_|__nv_|nv_bfloat|__half|__shfl|__ballot|__activemask|__syncwarp|"
    r"__match_|__reduce_\w+_sync|make_cu|cuC)"
)
NOISE = re.compile(r"(_ptds|_ptsz|_params|_st|_H|_H_|_INCLUDED|_st_v\d+|_impl|_IMPL|QUALIFIERS|_CPP_VERSION|_CPP_DIALECT)$"
                   r"|^__cuda|^__CUDA|_internal|internal_|DEPRECAT")


@dataclass
class CudaName:
    name: str
    kind: str
    family: str
    header: str
    internal: bool
    twins: tuple[str, ...] = ()  # an enumerator's: the others of its enum with the same value



def scan_cuda(cuda_inc: Path, wheel_incs: list[Path]) -> tuple[dict[str, CudaName], dict[str, str], Counter, set[str]]:
    """name -> CudaName, header -> family, statistics, and the attribute-like macros."""
    scanner = Scanner()
    headers: dict[str, str] = {}
    roots: list[tuple[str, Path]] = [("cuda", cuda_inc)] + [("wheel", p) for p in wheel_incs]
    stats = Counter()
    files: list[tuple[str, str, str, str]] = []  # (rel, origin, family, text)
    for origin, root in roots:
        for path in sorted(root.rglob("*")):
            if not path.is_file():
                continue
            rel = path.relative_to(root).as_posix()
            org = origin
            if origin == "cuda" and rel.startswith("cccl/"):
                rel = rel[len("cccl/"):]
                org = "cccl"
                if not rel.startswith(("cub/", "thrust/")):
                    continue
            fam = header_family(rel, org)
            if fam is None:
                continue
            headers[rel] = fam
            if path.suffix not in (".h", ".hpp", ".cuh", ".inl", ".hxx") and "." in path.name:
                continue
            files.append((rel, org, fam, read_text(path)))
    for rel, org, fam, text in files:
        if org != "cccl":
            scanner.collect_macros(text)
    for rel, org, fam, text in files:
        stats["headers"] += 1
        if org == "cccl":
            scanner.scan(text, rel, fam, macros_only=True)
            continue
        if rel.startswith("generated_") and rel != "generated_cudart_removed_meta.h":
            continue
        if rel == "generated_cudart_removed_meta.h":
            # functions removed from the runtime API: their parameter structs keep the names
            for name in sorted(set(re.findall(r"\bstruct\s+(cuda\w+?)(?:_ptsz|_ptds)?_v\d+_params_st\b", text))):
                scanner.add(name, "function", rel, fam, False)
            for name in sorted(set(re.findall(r"\bstruct\s+(cuda\w+)\s*\*", text))):
                scanner.add(name, "type", rel, fam, False)  # removed types still named by parameters
            continue
        scanner.scan(text, rel, fam)
    for rel, fam in LEGACY_HEADERS.items():
        headers.setdefault(rel, fam)
    best: dict[str, CudaName] = {}
    for d in scanner.decls:
        if d.name in scanner.attr_macros and d.kind != "macro":
            continue
        cur = best.get(d.name)
        key = (d.internal, KIND_RANK[d.kind], FAMILY_ORDER.index(d.family), d.header)
        if cur is None or key < (cur.internal, KIND_RANK[cur.kind], FAMILY_ORDER.index(cur.family), cur.header):
            best[d.name] = CudaName(d.name, d.kind, d.family, d.header, d.internal)
    # `#define cuMemAlloc cuMemAlloc_v2`: the versioned name is the real symbol, of the same kind
    for a, b, header, fam in scanner.aliases:
        if b not in best and a in best and best[a].kind != "macro" and CUDA_API.match(b):
            best[b] = CudaName(b, best[a].kind, best[a].family, header, best[a].internal)
    for group in scanner.enum_twins:
        for name in group:
            if name in best and best[name].kind == "enum":
                best[name] = replace(best[name], twins=tuple(other for other in group if other != name))
    # compiler-defined macros tested by the headers (__CUDACC__, __CUDA_ARCH__, ...)
    for name in sorted(scanner.compiler_macros):
        best.setdefault(name, CudaName(name, "macro", "other", "(compiler)", False))
    stats["declarations"] = len(scanner.decls)
    return best, headers, stats, scanner.attr_macros


# CUDA's bfloat16 API and HIP's header of the same API (__hip_bfloat16, HIP >= 5.7).
CUDA_BF16_HEADERS = ("cuda_bf16.h", "cuda_bf16.hpp")
HIP_BF16_HEADER = "hip/amd_detail/amd_hip_bf16.h"


def bf16_functions_hip_shares(cuda_inc: Path, sets: list[HeaderSet], attr_macros: set[str]) -> dict[str, str]:
    """The functions of CUDA's bfloat16 API (declared by cuda_bf16.h/.hpp) that HIP's amd_hip_bf16.h also
    declares under the same name: name -> the first inspected HIP release whose amd_hip_bf16.h declares it.

    hipify-perl 6.0.2 calls most of them unsupported and 7.0.2 maps them to themselves, which gives no row;
    HIP has them since 5.7 (hip/hip_bf16.h, for __hip_bfloat16/__hip_bfloat162). Both sides are read with
    the same declaration scanner, so a name HIP only mentions (in a body or a comment) does not count."""
    cuda = Scanner()
    cuda.attr_macros = set(attr_macros)
    for rel in CUDA_BF16_HEADERS:
        if (cuda_inc / rel).is_file():
            cuda.scan(read_text(cuda_inc / rel), rel, "fp16")
    cuda_functions = {d.name for d in cuda.decls if d.kind == "function" and not d.internal}
    first: dict[str, str] = {}
    for s in sorted((s for s in sets if s.package == "libamdhip64-dev"), key=lambda s: version_key(s.release)):
        path = s.root / HIP_BF16_HEADER
        if not path.is_file():
            continue
        hip = Scanner()
        text = read_text(path)
        hip.collect_macros(text)
        hip.scan(text, HIP_BF16_HEADER, "fp16")
        for d in hip.decls:
            if d.kind == "function" and not d.internal and d.name in cuda_functions:
                first.setdefault(d.name, s.release)
    return first
