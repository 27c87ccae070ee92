#!/usr/bin/env python3
"""(Re)generate the mapping packs rules/mappings/<family>.toml (format: docs/packs.md).

How the rows are derived:

1. Candidate CUDA names are collected from CUDA header text with a small tokenizer of our own:
   the CUDA toolkit headers (default /usr/local/cuda/include) and the include/ folders of the
   NVIDIA library wheels (cuBLAS, cuRAND, cuFFT, cuSPARSE, cuSOLVER, NVRTC, NCCL) fetched with
   `pip download` into the cache. Each declaration gives a name, a kind (function, type, enum,
   macro, namespace) and, through the header that declares it, an API family. The runtime headers
   of CUDA 12.8 (the nvidia-cuda-runtime-cu12 wheel) add the non-macro names CUDA 13 dropped
   (cudaThreadSynchronize, cudaThreadExit, ...), which code written for older toolkits still calls.
   The header file names themselves are the candidates of the [headers] tables.
2. The candidates are written one per line into a scratch file (names as `NAME()`, namespaces as
   `NAME::x()`, headers as `#include <HEADER>`) and the installed hipify-perl runs once over it.
   What each line became is the HIP name; hipify-perl's warnings say which names it knows as
   unsupported. (Names that hipify-perl only converts with -experimental get a second run with
   that flag.)
   A second, newer hipify-perl (by default the newest one packaged by the inspected suites, e.g.
   sid's 7.0.2 next to the toolchain's 6.0.2; --second-hipify-perl) then runs over the names and
   headers the first one leaves alone. Its answer becomes a row only when the HIP name is declared
   by the inspected HIP headers -- those of the family's HIP library where it has one (cuSOLVER:
   libhipsolver-dev, cuBLAS: libhipblas-dev, ...) -- and is not a C++ keyword; a header row only when
   an inspected package ships the header (a flat `hipsolver.h` is looked up as `hipsolver/hipsolver.h`,
   the packages' layout). Such rows carry the comment `# hipify-perl <version>` in the packs, and the
   summary counts them per family, with the answers left out and where the two hipify-perls disagree
   on names the first one converts (the first one's answer is kept there).
3. `since`: the HIP headers of several Debian suites (libamdhip64-dev and the HIP library -dev
   packages) are downloaded through a private apt configuration that reuses the mirror of the
   machine's own apt sources; a HIP name's `since` is the major.minor version of the oldest package
   whose headers declare it, else the version of hipify-perl.
   RCCL keeps the NCCL names: an NCCL name that librccl-dev's headers declare is supported as it is
   (neither a row nor [unsupported]), one they lack is [unsupported].
   bfloat16 (bf16_functions_hip_shares): the functions that CUDA's cuda_bf16.h/.hpp declare and HIP's
   amd_hip_bf16.h (HIP >= 5.7) declares under the same name become rows mapping the name to itself, marked
   `# amd_hip_bf16.h <release>`; hipify-perl calls most of them unsupported or maps them to themselves.
4. rules/mappings/overrides.toml (hand-written, commented) is applied last; it alone gives header rows a
   `since` and an `older` header (cuda_bf16.h), which the summary checks against the packages' files.

The output is sorted and deterministic for the same inputs; downloads and hipify-perl's results are
cached under --cache, so a second run takes seconds. The summary ends with a check of the runtime
pack against the installed HIP headers (--installed-hip): a HIP name they do not declare must have
`since` above their release.

Usage: python scripts/gen_packs.py [--hipify-perl PATH] [--second-hipify-perl PATH|none|auto]
                                  [--out rules/mappings] [--cache DIR]
"""
from __future__ import annotations

import argparse
import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
import tomllib
import zipfile
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# --------------------------------------------------------------------------------------------
# Families
# --------------------------------------------------------------------------------------------

FAMILIES = {  # family -> (code, title)
    "runtime": ("MAP001", "CUDA runtime API"),
    "driver": ("MAP002", "CUDA driver API"),
    "device": ("MAP003", "CUDA device functions, intrinsics, warp functions and vector types"),
    "fp16": ("MAP004", "Half and bfloat16 types and functions (cuda_fp16.h, cuda_bf16.h)"),
    "cooperative_groups": ("MAP005", "Cooperative groups"),
    "cublas": ("MAP006", "cuBLAS to hipBLAS"),
    "curand": ("MAP007", "cuRAND to hipRAND"),
    "cufft": ("MAP008", "cuFFT to hipFFT"),
    "cusparse": ("MAP009", "cuSPARSE to hipSPARSE"),
    "cusolver": ("MAP010", "cuSOLVER to hipSOLVER"),
    "nccl": ("MAP011", "NCCL to RCCL (RCCL keeps the nccl names)"),
    "cub": ("MAP012", "CUB to hipCUB"),
    "thrust": ("MAP013", "Thrust to rocThrust (rocThrust keeps the thrust names)"),
    "complex": ("MAP014", "cuComplex to hip_complex"),
    "rtc": ("MAP015", "NVRTC to hipRTC"),
    "other": ("MAP016", "Other CUDA APIs (profiler, graphics interop, tools)"),
}
# When one name is declared in headers of several families, the first family here wins.
FAMILY_ORDER = ["runtime", "driver", "complex", "device", "fp16", "cooperative_groups", "rtc",
                "cublas", "curand", "cufft", "cusparse", "cusolver", "nccl", "cub", "thrust", "other"]

RUNTIME_HEADERS = {
    "builtin_types.h", "channel_descriptor.h", "cuda_runtime.h", "cuda_runtime_api.h",
    "driver_types.h", "driver_functions.h", "library_types.h", "surface_types.h", "texture_types.h",
    "cuda_texture_types.h", "cuda_surface_types.h", "cuda_device_runtime_api.h", "cuda_occupancy.h",
    "host_config.h", "host_defines.h", "cudart_platform.h", "cuda_stdint.h",
    "generated_cudart_removed_meta.h",
}
DRIVER_HEADERS = {"cuda.h", "cudaTypedefs.h"}
OTHER_PREFIXES = ("cudaGL", "cudaEGL", "cudaVDPAU", "cuda_gl_interop", "cuda_egl_interop",
                  "cuda_vdpau_interop", "cudaProfiler", "cuda_profiler_api", "cupti", "nvperf",
                  "nvvm", "nv_decode", "fatbinary_section", "nvtx3/", "generated_")
FP16_PREFIXES = ("cuda_fp16", "cuda_bf16", "cuda_fp8", "cuda_fp6", "cuda_fp4")

# CUDA 12.8's runtime headers: the names CUDA 13 dropped (cudaThreadSynchronize, cudaThreadExit, ...) are still in
# code written for older toolkits; they are run through hipify-perl like the names of the installed headers.
LEGACY_WHEELS = {"nvidia-cuda-runtime-cu12": "12.8.90"}

# Header names of the CUDA toolkit that are gone from recent toolkits but still appear in code
# written for older ones; they are run through hipify-perl like the headers that exist.
LEGACY_HEADERS = {
    "cuda_texture_types.h": "runtime", "cuda_surface_types.h": "runtime",
    "texture_fetch_functions.h": "device", "surface_functions.h": "device",
    "sm_11_atomic_functions.h": "device", "sm_12_atomic_functions.h": "device",
    "sm_13_double_functions.h": "device", "cusparse_v2.h": "cusparse",
}

# NVIDIA wheels whose include/ folders are scanned (pinned to the releases of CUDA 13.0 update 2,
# the toolkit whose headers are installed; --unpinned takes the newest).
WHEELS = {
    "nvidia-cublas": "13.1.0.3",
    "nvidia-curand": "10.4.0.35",
    "nvidia-cufft": "12.0.0.61",
    "nvidia-cusparse": "12.6.3.3",
    "nvidia-cusolver": "12.0.4.66",
    "nvidia-cuda-nvrtc": "13.0.88",
    "nvidia-nccl-cu13": "2.27.7",
}

# Debian packages whose headers give the `since` versions.
HIP_PACKAGES = ["libamdhip64-dev", "libhipblas-dev", "libhipfft-dev", "libhipsparse-dev",
                "libhiprand-dev", "libhipcub-dev", "libhipsolver-dev", "librccl-dev",
                "librocrand-dev"]
DEFAULT_SUITES = ["bookworm", "trixie", "sid"]
# The HIP library packages whose headers must declare a HIP name that the second hipify-perl gives a
# name of these families (other families: any inspected package).
FAMILY_PACKAGES = {
    "cublas": ("libhipblas-dev",), "curand": ("libhiprand-dev", "librocrand-dev"), "cufft": ("libhipfft-dev",),
    "cusparse": ("libhipsparse-dev",), "cusolver": ("libhipsolver-dev",), "nccl": ("librccl-dev",),
    "cub": ("libhipcub-dev",),
}
# Words that occur in every header without being a HIP declaration (cusolver_int_t -> int).
CXX_KEYWORDS = {
    "auto", "bool", "char", "char16_t", "char32_t", "const", "double", "enum", "float", "int", "long", "short",
    "signed", "size_t", "struct", "union", "unsigned", "void", "volatile", "wchar_t",
}


def header_family(rel: str, origin: str) -> str | None:
    """API family of a CUDA header (rel: path as written in #include); None: not scanned."""
    base = rel.rsplit("/", 1)[-1]
    if origin == "cccl":
        top = rel.split("/", 1)[0]
        return {"cub": "cub", "thrust": "thrust"}.get(top)
    if origin != "cuda":  # a library wheel
        for prefix, fam in (("cublas", "cublas"), ("nvblas", "cublas"), ("curand", "curand"),
                            ("cufft", "cufft"), ("cudalibxt", "cufft"), ("cusparse", "cusparse"),
                            ("cusolver", "cusolver"), ("nccl", "nccl"), ("nvrtc", "rtc")):
            if rel.startswith(prefix):
                return fam
        return "other"
    if rel.startswith(("nv/", "Openacc/", "Openmp/")):
        return None
    if rel in RUNTIME_HEADERS:
        return "runtime"
    if rel in DRIVER_HEADERS:
        return "driver"
    if rel.startswith(FP16_PREFIXES):
        return "fp16"
    if rel == "cuComplex.h":
        return "complex"
    if rel.startswith("cooperative_groups"):
        return "cooperative_groups"
    if rel.startswith(OTHER_PREFIXES):
        return "other"
    if base.startswith("nvrtc"):
        return "rtc"
    return "device"  # crt/, sm_*_intrinsics, math, atomics, vector types, mma, pipeline, ...


# --------------------------------------------------------------------------------------------
# A small C/C++ header scanner
# --------------------------------------------------------------------------------------------

_LEX = re.compile(
    r"""(?P<lc>//[^\n]*)
      | (?P<bc>/\*.*?\*/)
      | (?P<raw>R"(?P<delim>[^()\\\s]{0,16})\(.*?\)(?P=delim)")
      | (?P<str>"(?:\\.|[^"\\\n])*")
      | (?P<chr>'(?:\\.|[^'\\\n])*')
    """,
    re.S | re.X,
)
_TOKEN = re.compile(r"[A-Za-z_]\w*|::|->|\.\.\.|\d[\w.]*(?:'[\w.]+)*|\"\"|''|\S")
_IDENT = re.compile(r"[A-Za-z_]\w*$")


def strip_comments(text: str) -> str:
    """Comments become blanks (newlines kept), string and char literals become "" and ''."""

    def repl(m: re.Match) -> str:
        if m.group("lc") is not None:
            return " "
        if m.group("bc") is not None:
            return " " + "\n" * m.group("bc").count("\n")
        if m.group("raw") is not None:
            return '""' + "\n" * m.group("raw").count("\n")
        if m.group("str") is not None:
            return '""'
        return "''"

    return _LEX.sub(repl, text)


NOT_FUNCTIONS = {
    "sizeof", "alignof", "decltype", "static_assert", "if", "while", "for", "switch", "return",
    "alignas", "noexcept", "throw", "typeid", "defined", "asm", "__asm__", "__asm", "_Pragma",
    "__pragma", "template", "typename", "operator", "new", "delete", "static_cast", "const_cast",
    "reinterpret_cast", "dynamic_cast", "catch", "__declspec", "__attribute__", "__align__",
    "__launch_bounds__", "__builtin_align__", "__nv_alignas", "requires", "explicit",
}
CLASS_KEYS = {"struct", "class", "union"}
IF, ELSE, ENDIF = "__GENPACKS_IF__", "__GENPACKS_ELSE__", "__GENPACKS_ENDIF__"  # conditional markers
INTERNAL_NAMESPACES = re.compile(r"^(details?|__\w*|_\w*|impl|internal|experimental)$")


@dataclass
class Decl:
    name: str
    kind: str      # function, type, enum, macro, namespace
    header: str    # header path as included
    family: str
    internal: bool  # declared inside a details/impl namespace or a class body


KIND_RANK = {"type": 0, "enum": 1, "function": 2, "namespace": 3, "macro": 4}


class Scanner:
    """Collects declarations from header text: #define names, namespaces, struct/class/union/enum
    tags, typedef and using names, enumerators and function declarations/definitions."""

    def __init__(self) -> None:
        self.decls: list[Decl] = []
        self.attr_macros: set[str] = set()          # object-like macros that expand to attributes
        self.aliases: list[tuple[str, str, str, str]] = []  # (#define A B: A, B, header, family)
        self.compiler_macros: set[str] = set()      # __CUDACC__ & co. tested in #if lines

    ATTR_START = {"__attribute__", "__declspec", "[", "__align__", "__host__", "__device__", "__forceinline__",
                  "__inline__", "inline", "static", "extern", "__noinline__", "__stdcall", "__cdecl",
                  "__global__", "__cudart_builtin__", "__location__", "__thread__", "__CUDA_DEPRECATED",
                  "__nv_pure__", "constexpr", "__export__", "__declspec__", "alignas", "__shared__"}

    def collect_macros(self, text: str) -> None:
        """First pass: object-like macros that are attributes (empty or attribute-like bodies)."""
        text = strip_comments(text).replace("\\\r\n", " ").replace("\\\n", " ")
        for m in re.finditer(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)\b(?!\()([^\n]*)$", text, re.M):
            body = _TOKEN.findall(m.group(2))
            if not body or body[0] in self.ATTR_START or (len(body) == 1 and body[0] in self.attr_macros):
                self.attr_macros.add(m.group(1))

    def add(self, name: str, kind: str, header: str, family: str, internal: bool) -> None:
        if _IDENT.match(name):
            self.decls.append(Decl(name, kind, header, family, internal))

    def scan(self, text: str, header: str, family: str, macros_only: bool = False) -> None:
        text = strip_comments(text).replace("\\\r\n", " ").replace("\\\n", " ")
        code_lines = []
        for line in text.split("\n"):
            s = line.lstrip()
            if s.startswith("#"):
                d = re.match(r"#\s*define\s+([A-Za-z_]\w*)(\(?)\s*(.*)$", s)
                if d and not re.search(r"_(H|HPP|CUH|INCLUDED)_*$", d.group(1)):
                    self.add(d.group(1), "macro", header, family, False)
                    if not d.group(2) and _IDENT.match(d.group(3).strip()):
                        self.aliases.append((d.group(1), d.group(3).strip(), header, family))
                if re.match(r"#\s*(if|ifdef|ifndef|elif)\b", s):
                    self.compiler_macros.update(re.findall(r"\b(__(?:CUDACC|NVCC|CUDA_ARCH)\w*__)", s))
                for ns in re.findall(r"\bnamespace\s+([A-Za-z_]\w*)\s*\{", s):
                    self.add(ns, "namespace", header, family, bool(INTERNAL_NAMESPACES.match(ns)))
                c = re.match(r"#\s*(if|ifdef|ifndef|elif|else|endif)\b", s)
                marker = {"if": IF, "ifdef": IF, "ifndef": IF, "elif": ELSE, "else": ELSE, "endif": ENDIF}
                code_lines.append(marker[c.group(1)] if c else "")
            else:
                code_lines.append(line)
        if macros_only:
            for ns in re.findall(r"\bnamespace\s+([A-Za-z_]\w*)\s*\{", text):
                self.add(ns, "namespace", header, family, bool(INTERNAL_NAMESPACES.match(ns)))
            return
        self._parse(_TOKEN.findall("\n".join(code_lines)), header, family)

    # ---- declarations in code ----
    def _parse(self, toks: list[str], header: str, family: str) -> None:
        # context stack entries: ("ns", internal) | ("class", ..) | ("enum", ..) | ("body", ..)
        stack: list[tuple[str, bool]] = [("ns", False)]
        stmt: list[str] = []      # current statement (namespace/class scope)
        saved: list[list[str]] = []  # statements interrupted by a class/enum body
        item: list[str] = []      # current enumerator (enum scope)
        depth_body = 0
        i = 0
        n = len(toks)
        # conditional groups: every branch is parsed, but after #endif the state is the one at the
        # end of the first branch (branches are alternatives: `#if A void f() { #else void g() { #endif`)
        cond: list[list] = []
        while i < n:
            t = toks[i]
            if t in (IF, ELSE, ENDIF):
                state = (list(stack), depth_body, list(stmt), [list(x) for x in saved], list(item))
                if t == IF:
                    cond.append([state, None])
                elif cond and t == ELSE:
                    if cond[-1][1] is None:
                        cond[-1][1] = state
                    s0 = cond[-1][0]
                    stack, depth_body, stmt, saved, item = (list(s0[0]), s0[1], list(s0[2]),
                                                            [list(x) for x in s0[3]], list(s0[4]))
                elif cond and t == ENDIF:
                    _, first = cond.pop()
                    if first is not None:
                        stack, depth_body, stmt, saved, item = first
                i += 1
                continue
            ctx, internal = stack[-1]
            if ctx == "body":
                if t == "{":
                    depth_body += 1
                elif t == "}":
                    depth_body -= 1
                    if depth_body == 0:
                        stack.pop()
                        stmt = saved.pop() if saved else []
                        # a function definition or an initializer ends here;
                        # `= {...};` keeps its statement going until the `;`
                        if stmt and stmt[-1] == "{}=":
                            stmt = stmt[:-1] + ["{}"]
                        else:
                            stmt = []
                i += 1
                continue
            if ctx == "enum":
                if t in (",", "}"):
                    for tok in item:
                        if _IDENT.match(tok):
                            if not (tok.startswith("__") and tok.endswith("__")):
                                self.add(tok, "enum", header, family, internal)
                            break
                    item = []
                    if t == "}":
                        stack.pop()
                        stmt = (saved.pop() if saved else []) + ["{}"]
                elif t == "{":  # should not happen; be safe
                    stack.append(("body", internal))
                    saved.append(stmt)
                    depth_body = 1
                else:
                    item.append(t)
                i += 1
                continue
            # namespace or class scope
            if t == ";":
                self._statement(stmt, header, family, internal or ctx == "class")
                stmt = []
            elif t == "{":
                kind, name = self._opening(stmt)
                in_class = ctx == "class"
                if kind == "namespace":
                    ns_internal = internal or bool(name and INTERNAL_NAMESPACES.match(name))
                    if name:
                        self.add(name, "namespace", header, family, ns_internal)
                    stack.append(("ns", ns_internal))
                    stmt = []
                elif kind == "extern":
                    stack.append(("ns", internal))
                    stmt = []
                elif kind in ("class", "enum"):
                    if name:
                        self.add(name, "type", header, family, internal or in_class)
                    saved.append(stmt)
                    stack.append((kind, internal or in_class))
                    item = []
                    stmt = []
                else:  # function body or initializer
                    if kind == "function":
                        self._statement(stmt, header, family, internal or in_class)
                        saved.append([])
                    else:
                        saved.append(stmt + ["{}="])
                    stack.append(("body", internal))
                    depth_body = 1
                    stmt = []
            elif t == "}":
                if len(stack) > 1:
                    stack.pop()
                    if ctx == "class":
                        stmt = (saved.pop() if saved else []) + ["{}"]
                    else:
                        stmt = []
                else:
                    stmt = []
            elif t == ":" and ctx == "class" and stmt and stmt[-1] in ("public", "private", "protected"):
                stmt = []
            else:
                stmt.append(t)
            i += 1

    def _opening(self, stmt: list[str]) -> tuple[str, str | None]:
        """What does a `{` after these tokens open?"""
        stmt = _strip_templates(stmt)
        if not stmt:
            return "block", None
        if "namespace" in stmt:
            k = len(stmt) - 1 - stmt[::-1].index("namespace")
            rest = [t for t in stmt[k + 1:] if t != "inline"]
            names = [t for t in rest if _IDENT.match(t)]
            return "namespace", (names[-1] if names else None)
        if stmt[-1] == '""' and len(stmt) >= 2 and stmt[-2] == "extern":
            return "extern", None  # extern "C" {  (whatever stray tokens precede it)
        if "=" in _depth0(stmt):
            return "init", None
        depth = 0
        for k, t in enumerate(stmt):
            if t == "(":
                depth += 1
            elif t == ")":
                depth -= 1
            elif depth == 0 and (t == "enum" or (t in CLASS_KEYS and "(" not in stmt[:k])):
                name, j = self._head_name(stmt, k + 1)
                if j < len(stmt) and stmt[j] != ":":
                    break  # `struct X f(...) {` / `enum X f(...) {` / `struct X x = {`: no definition
                return ("enum" if t == "enum" else "class"), name
        if ")" in stmt or stmt[-1] in ("const", "noexcept", "override", "final"):
            return "function", None
        return "block", None

    def _is_attr(self, toks: list[str], j: int) -> bool:
        t = toks[j]
        return (t in self.attr_macros or (t.startswith("__") and t.endswith("__") and len(t) > 4)
                or t in ("alignas", "__declspec", "final", "[") or (t.isupper() and j + 1 < len(toks) and toks[j + 1] == "("))

    def _head_name(self, toks: list[str], j: int) -> tuple[str | None, int]:
        """Name of `struct/class/union/enum [class] [attributes] NAME [<...>] [final]` from toks[j];
        returns (name, index after the head)."""
        name = None
        while j < len(toks):
            t = toks[j]
            if t in ("class", "struct") and name is None:
                j += 1
            elif t == "[" and j + 1 < len(toks) and toks[j + 1] == "[":
                while j < len(toks) and toks[j] != "]":
                    j += 1
                j += 2
            elif self._is_attr(toks, j):
                j = _skip_parens(toks, j + 1) if j + 1 < len(toks) and toks[j + 1] == "(" else j + 1
            elif _IDENT.match(t) and name is None:
                name = t
                j += 1
                while j + 1 < len(toks) and toks[j] == "::" and _IDENT.match(toks[j + 1]):
                    name = toks[j + 1]
                    j += 2
                if j < len(toks) and toks[j] == "<":
                    j = _skip_angles(toks, j)
            else:
                break
        return name, j

    def _statement(self, stmt: list[str], header: str, family: str, internal: bool) -> None:
        templated = bool(stmt) and stmt[0] == "template"
        stmt = _strip_templates(stmt)
        if not stmt:
            return
        # type names anywhere: struct X / class X / union X / enum X (forward or elaborated)
        for k, t in enumerate(stmt[:-1]):
            if (t in CLASS_KEYS or t == "enum") and (k == 0 or stmt[k - 1] != "enum"):
                name, _ = self._head_name(stmt, k + 1)
                if name:
                    self.add(name, "type", header, family, internal)
        first = 0
        while first < len(stmt) and stmt[first] in ("extern", "template", "__extension__"):
            if stmt[first] == "template" and first + 1 < len(stmt) and stmt[first + 1] == "<":
                first = _skip_angles(stmt, first + 1)
            else:
                first += 1
        body = stmt[first:]
        if not body:
            return
        if body[0] == "typedef":
            for name in _typedef_names([t for t in body[1:] if t not in self.attr_macros]):
                self.add(name, "type", header, family, internal)
            return
        if body[0] == "using" and len(body) > 2 and _IDENT.match(body[1]) and body[2] == "=":
            self.add(body[1], "type", header, family, internal)
            return
        if body[0] in ("using", "friend", "namespace", "static_assert", "return"):
            return
        # function declaration: the first NAME( at paren depth 0 that is not an attribute/macro
        depth = 0
        k = 0
        while k < len(body) - 1:
            t = body[k]
            if t == "(":
                depth += 1
            elif t == ")":
                depth -= 1
            elif t == "<" and depth == 0 and k > 0 and _IDENT.match(body[k - 1]):
                k = _skip_angles(body, k)
                continue
            elif t == "=" and depth == 0:
                return  # a variable with an initializer
            elif depth == 0 and _IDENT.match(t) and body[k + 1] == "(":
                prev = body[k - 1] if k else ""
                if (t in NOT_FUNCTIONS or t in CXX_KEYWORDS or prev in ("operator", "::", ".", "->") or t.isupper()
                        or (t.startswith("__") and t.endswith("__") and len(t) > 4)):
                    k = _skip_parens(body, k + 1)
                    continue
                if k == 0 and not templated:
                    return  # a macro invocation at file scope, not a declaration
                self.add(t, "function", header, family, internal)
                return
            k += 1


def _depth0(toks: list[str]) -> list[str]:
    """The tokens outside parentheses, less the symbol of an operator's name (`operator*=`, `operator==`,
    `operator()`): its `=` does not start an initializer."""
    out, depth, k = [], 0, 0
    while k < len(toks):
        t = toks[k]
        if t == "operator" and depth == 0:
            k += 1
            if toks[k:k + 2] == ["(", ")"]:
                k += 2
            while k < len(toks) and toks[k] != "(" and not _IDENT.match(toks[k]):
                k += 1
            continue
        if t == "(":
            depth += 1
        elif t == ")":
            depth -= 1
        elif depth == 0:
            out.append(t)
        k += 1
    return out


def _strip_templates(toks: list[str]) -> list[str]:
    """Tokens without their `template <...>` parameter lists."""
    if "template" not in toks:
        return toks
    out, k = [], 0
    while k < len(toks):
        if toks[k] == "template" and k + 1 < len(toks) and toks[k + 1] == "<":
            k = _skip_angles(toks, k + 1)
            continue
        out.append(toks[k])
        k += 1
    return out


def _skip_parens(toks: list[str], k: int) -> int:
    """toks[k] == '(' : index after the matching ')'."""
    if k >= len(toks) or toks[k] != "(":
        return k
    depth = 0
    while k < len(toks):
        if toks[k] == "(":
            depth += 1
        elif toks[k] == ")":
            depth -= 1
            if depth == 0:
                return k + 1
        k += 1
    return k


def _skip_angles(toks: list[str], k: int) -> int:
    """toks[k] == '<' : index after the matching '>' (parentheses nest, '>>' not split)."""
    depth = 0
    while k < len(toks):
        t = toks[k]
        if t == "<":
            depth += 1
        elif t == ">":
            depth -= 1
            if depth == 0:
                return k + 1
        elif t == "(":
            k = _skip_parens(toks, k)
            continue
        elif t in (";", "{"):
            return k
        k += 1
    return k


def _typedef_names(toks: list[str]) -> list[str]:
    """Declarator names of a typedef (tokens after `typedef`)."""
    # declarators start after the last top-level '{}' placeholder, else after the type
    if "{}" in toks:
        toks = toks[len(toks) - 1 - toks[::-1].index("{}") + 1:]
        parts = _split_commas(toks)
    else:
        parts = _split_commas(toks)
    names = []
    for part in parts:
        if not part:
            continue
        if "(" in part:  # function pointer / function type: (ATTR *NAME)(...) or NAME(...)
            k = part.index("(")
            inner = part[k + 1:_skip_parens(part, k) - 1]
            ids = [t for t in inner if _IDENT.match(t)]
            if "*" in inner or "&" in inner or "^" in inner:
                star = max(j for j, t in enumerate(inner) if t in ("*", "&", "^"))
                after = [t for t in inner[star + 1:] if _IDENT.match(t)]
                if after:
                    names.append(after[0])
                    continue
            before = [t for t in part[:k] if _IDENT.match(t)]
            if before and not ids:
                names.append(before[-1])
            elif before:
                names.append(before[-1])
            continue
        cut = part.index("[") if "[" in part else len(part)
        ids = [t for t in part[:cut] if _IDENT.match(t)]
        ids = [t for t in ids if not (t.startswith("__") and t.endswith("__"))]
        if ids:
            names.append(ids[-1])
    return names


def _split_commas(toks: list[str]) -> list[list[str]]:
    parts, cur, depth = [], [], 0
    for t in toks:
        if t in ("(", "[", "<"):
            depth += 1
        elif t in (")", "]", ">"):
            depth -= 1
        if t == "," and depth == 0:
            parts.append(cur)
            cur = []
        else:
            cur.append(t)
    parts.append(cur)
    return parts


def identifiers_in(text: str) -> set[str]:
    """All identifiers of header text outside comments and string literals."""
    return set(re.findall(r"[A-Za-z_]\w*", strip_comments(text)))


def read_text(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace")


# --------------------------------------------------------------------------------------------
# Fetching: wheels (pip) and Debian packages (private apt configuration)
# --------------------------------------------------------------------------------------------

def log(msg: str) -> None:
    print(f"gen_packs: {msg}", file=sys.stderr, flush=True)


def run(cmd: list[str], **kw) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, check=True, text=True, **kw)


def fetch_wheels(cache: Path, unpinned: bool, which: dict[str, str] | None = None) -> dict[str, tuple[str, Path]]:
    """dist name -> (version, include dir) of each NVIDIA wheel of `which` (default WHEELS)."""
    wheels_dir = cache / "wheels"
    inc_root = cache / "cuda-libs"
    wheels_dir.mkdir(parents=True, exist_ok=True)
    out: dict[str, tuple[str, Path]] = {}
    for dist, version in (WHEELS if which is None else which).items():
        stem = dist.replace("-", "_")
        pattern = f"{stem}-{version}-*.whl" if not unpinned else f"{stem}-*.whl"
        found = sorted(wheels_dir.glob(pattern))
        if not found:
            spec = dist if unpinned else f"{dist}=={version}"
            log(f"pip download --no-deps {spec}")
            try:
                run([sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", "-d", str(wheels_dir), spec],
                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            except subprocess.CalledProcessError as exc:
                if unpinned:
                    raise SystemExit(f"gen_packs: pip download {spec} failed:\n{exc.stderr}")
                log(f"pinned {spec} not available ({exc.stderr.strip().splitlines()[-1:]}), trying the newest")
                run([sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", "-d", str(wheels_dir), dist],
                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            found = sorted(wheels_dir.glob(f"{stem}-*.whl"))
        whl = found[-1]
        ver = whl.name.split("-")[1]
        dest = inc_root / f"{stem}-{ver}"
        stamp = dest / ".done"
        if not stamp.exists():
            shutil.rmtree(dest, ignore_errors=True)
            with zipfile.ZipFile(whl) as z:
                for member in z.namelist():
                    m = re.match(r"(?:.*/)?include/(.+)$", member)
                    if m and not member.endswith("/") and "/include/" in "/" + member:
                        target = dest / "include" / m.group(1)
                        target.parent.mkdir(parents=True, exist_ok=True)
                        with z.open(member) as src, open(target, "wb") as dst:
                            shutil.copyfileobj(src, dst)
            stamp.parent.mkdir(parents=True, exist_ok=True)
            stamp.write_text(whl.name + "\n")
        out[dist] = (ver, dest / "include")
    return out


def machine_mirror() -> str:
    """The Debian mirror URI of this machine's own apt sources (never a built-in hostname)."""
    uris: list[str] = []
    for f in sorted(glob.glob("/etc/apt/sources.list.d/*.sources")):
        for line in Path(f).read_text(errors="replace").splitlines():
            if line.startswith("URIs:"):
                uris.extend(line.split()[1:])
    for f in ["/etc/apt/sources.list"] + sorted(glob.glob("/etc/apt/sources.list.d/*.list")):
        if os.path.exists(f):
            for line in Path(f).read_text(errors="replace").splitlines():
                parts = line.split()
                if parts and parts[0] == "deb":
                    uri = next((p for p in parts[1:] if not p.startswith("[")), None)
                    if uri:
                        uris.append(uri)
    for uri in uris:
        if "-security" not in uri and re.search(r"/debian/?$", uri):
            return uri.rstrip("/")
    raise SystemExit("gen_packs: no Debian mirror found in the machine's apt sources")


def debian_version(v: str) -> str:
    """'1:5.3.3+dfsg-2~deb12u1' -> '5.3'."""
    v = v.split(":", 1)[-1]
    m = re.match(r"(\d+)\.(\d+)", v)
    if not m:
        raise ValueError(v)
    return f"{m.group(1)}.{m.group(2)}"


@dataclass
class HeaderSet:
    suite: str
    package: str
    version: str       # full Debian version
    release: str       # major.minor
    root: Path         # extracted usr/include


def fetch_hip_headers(cache: Path, suites: list[str], refresh: bool) -> tuple[list[HeaderSet], dict[str, tuple[str, Path]]]:
    """Headers of HIP_PACKAGES in each suite (+ each suite's hipify-perl, to name the installed one)."""
    base = cache / "debian"
    sets: list[HeaderSet] = []
    hipify_perls: dict[str, tuple[str, Path]] = {}
    mirror = None
    for suite in suites:
        sdir = base / suite
        index = sdir / "index.json"
        if index.exists() and not refresh:
            data = json.loads(index.read_text())
        else:
            if mirror is None:
                mirror = machine_mirror()
            data = _apt_fetch_suite(sdir, suite, mirror)
            index.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
        for pkg, ver in sorted(data["packages"].items()):
            sets.append(HeaderSet(suite, pkg, ver, debian_version(ver), sdir / "root" / pkg / "usr" / "include"))
        if data.get("hipify-perl"):
            hipify_perls[suite] = (data["hipify-perl"], sdir / "root" / "hipify-perl" / "usr" / "bin" / "hipify-perl")
    return sets, hipify_perls


def _apt_fetch_suite(sdir: Path, suite: str, mirror: str) -> dict:
    log(f"fetching {suite}'s package list (private apt configuration, mirror of the machine's sources)")
    shutil.rmtree(sdir, ignore_errors=True)
    for d in ("lists/partial", "cache/archives/partial", "debs", "root"):
        (sdir / d).mkdir(parents=True, exist_ok=True)
    keyring = "/usr/share/keyrings/debian-archive-keyring.gpg"
    (sdir / "sources.list").write_text(f"deb [signed-by={keyring}] {mirror} {suite} main\n")
    opts = ["-o", f"Dir::Etc::SourceList={sdir / 'sources.list'}", "-o", "Dir::Etc::SourceParts=-",
            "-o", f"Dir::State::Lists={sdir / 'lists'}", "-o", f"Dir::Cache={sdir / 'cache'}",
            "-o", "Dir::State::Status=/dev/null", "-o", "APT::Get::List-Cleanup=0",
            "-o", "Debug::NoLocking=1", "-o", "APT::Sandbox::User=root"]
    run(["apt-get", *opts, "update", "-qq"], stdout=subprocess.DEVNULL)
    data: dict = {"packages": {}, "hipify-perl": None}
    for pkg in HIP_PACKAGES + ["hipify-perl"]:
        res = subprocess.run(["apt-get", *opts, "download", pkg], cwd=sdir / "debs", text=True,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if res.returncode != 0:
            log(f"  {suite}: no {pkg}")
            continue
        deb = sorted((sdir / "debs").glob(f"{pkg}_*.deb"))[-1]
        ver = run(["dpkg-deb", "-f", str(deb), "Version"], stdout=subprocess.PIPE).stdout.strip()
        run(["dpkg-deb", "-x", str(deb), str(sdir / "root" / pkg)])
        log(f"  {suite}: {pkg} {ver}")
        if pkg == "hipify-perl":
            data["hipify-perl"] = ver
        else:
            data["packages"][pkg] = ver
    shutil.rmtree(sdir / "debs", ignore_errors=True)
    shutil.rmtree(sdir / "cache", ignore_errors=True)
    return data


def hip_identifiers(root: Path) -> set[str]:
    """Identifiers declared (present outside comments) in a HIP header tree; the NVIDIA-platform
    folders (nvidia_detail, nvcc_detail) are left out: they only map HIP names onto CUDA ones."""
    names: set[str] = set()
    if not root.is_dir():
        return names
    for path in sorted(root.rglob("*")):
        if not path.is_file():
            continue
        rel = path.relative_to(root).as_posix()
        if "nvidia_detail/" in rel or "nvcc_detail/" in rel:
            continue
        if path.suffix not in (".h", ".hpp", ".cuh", ".inl", "") and not path.name.endswith(".h.in"):
            continue
        names |= identifiers_in(read_text(path))
    return names


def installed_release(hip_dir: Path) -> str:
    """major.minor of the HIP headers in hip_dir (hip_version.h)."""
    ver = hip_dir / "hip_version.h"
    if ver.is_file():
        text = read_text(ver)
        major = re.search(r"#define\s+HIP_VERSION_MAJOR\s+(\d+)", text)
        minor = re.search(r"#define\s+HIP_VERSION_MINOR\s+(\d+)", text)
        if major and minor:
            return f"{major.group(1)}.{minor.group(1)}"
    return "5.2"


def hip_header_files(root: Path) -> set[str]:
    out = set()
    if root.is_dir():
        for path in root.rglob("*"):
            if path.is_file():
                out.add(path.relative_to(root).as_posix())
    return out


# --------------------------------------------------------------------------------------------
# hipify-perl
# --------------------------------------------------------------------------------------------

WARN = re.compile(r'^\s*warning: (?P<file>.*?):(?P<line>\d+): (?P<what>unsupported device function|unsupported identifier|'
                  r'experimental identifier|deprecated identifier|removed identifier) "(?P<name>[^"]+)"(?P<rest>.*)$')
WARN_LEFT = re.compile(r"^\s*warning: (?P<file>.*?):#(?P<line>\d+) : (?P<text>.*)$")
# hipify-perl 7.x words its warnings differently: `FILE:LINE: warning: unsupported HIP identifier: NAME`,
# `FILE:LINE: warning: unsupported device function "NAME": LINE TEXT`; they are read into the same kinds.
WARN_NEW = re.compile(r'^\s*(?P<file>.*?):(?P<line>\d+): warning: (?P<what>unsupported HIP identifier|'
                      r'unsupported device data type identifier|unsupported device function|'
                      r'experimental ROCm HIP identifier|deprecated CUDA identifier|removed CUDA identifier)'
                      r'(?: "(?P<qname>[^"]+)")?: (?P<name>\S+)(?P<rest>.*)$')
WARN_NEW_KIND = {
    "unsupported HIP identifier": "unsupported identifier",
    "unsupported device data type identifier": "unsupported identifier",
    "unsupported device function": "unsupported device function",
    "experimental ROCm HIP identifier": "experimental identifier",
    "deprecated CUDA identifier": "deprecated identifier",
    "removed CUDA identifier": "removed identifier",
}


@dataclass
class HipifyResult:
    out: dict[int, str] = field(default_factory=dict)          # line -> output line
    warnings: dict[int, list[tuple[str, str, str]]] = field(default_factory=lambda: defaultdict(list))
    left: set[int] = field(default_factory=set)                # lines flagged as unconverted cuda*


def run_hipify(hipify: str, lines: list[str], workdir: Path, tag: str, extra: list[str] | None = None,
               cache: Path | None = None) -> HipifyResult:
    """Run hipify-perl once over `lines` (one candidate a line); results are cached by content."""
    src = workdir / f"{tag}.cu"
    dst = workdir / f"{tag}.hip"
    text = "\n".join(lines) + "\n"
    src.write_text(text)
    key = hashlib.sha256(Path(hipify).read_bytes() + repr(extra).encode() + text.encode()).hexdigest()[:24]
    hit = cache / f"{tag}-{key}" if cache else None
    if hit and (hit / "out").is_file() and (hit / "err").is_file():
        shutil.copyfile(hit / "out", dst)
        stderr = (hit / "err").read_text()
    else:
        res = subprocess.run(["perl", hipify, *(extra or []), f"-o={dst}", str(src)], text=True,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if res.returncode != 0:
            raise SystemExit(f"gen_packs: hipify-perl failed on {src}:\n{res.stderr[-2000:]}")
        stderr = res.stderr
        if hit:
            hit.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(dst, hit / "out")
            (hit / "err").write_text(stderr)
    out_lines = dst.read_text().split("\n")
    if out_lines and out_lines[-1] == "":
        out_lines.pop()
    if len(out_lines) == len(lines) + 1 and out_lines[0] == '#include "hip/hip_runtime.h"':
        out_lines = out_lines[1:]
    if len(out_lines) != len(lines):
        raise SystemExit(f"gen_packs: hipify-perl output of {src} has {len(out_lines)} lines for {len(lines)}")
    result = HipifyResult()
    for k, line in enumerate(out_lines, 1):
        result.out[k] = line
    for wl in stderr.splitlines():
        m = WARN.match(wl)
        if m:
            result.warnings[int(m.group("line"))].append((m.group("what"), m.group("name"), m.group("rest").strip()))
            continue
        m = WARN_NEW.match(wl)
        if m:
            name = m.group("qname") or m.group("name")
            rest = "" if m.group("qname") else m.group("rest").strip()
            result.warnings[int(m.group("line"))].append((WARN_NEW_KIND[m.group("what")], name, rest))
            continue
        m = WARN_LEFT.match(wl)
        if m:
            result.left.add(int(m.group("line")))
    return result


def hipify_version(hipify: str, candidates: dict[str, tuple[str, Path]]) -> tuple[str, str]:
    """(full version, major.minor) of the hipify-perl in use: the Debian package version when the
    file is byte-identical to a suite's hipify-perl, else what `-version` prints."""
    data = Path(hipify).read_bytes()
    for suite, (ver, path) in sorted(candidates.items()):
        if path.is_file() and path.read_bytes() == data:
            full = re.match(r"(\d+(?:\.\d+)*)", ver.split(":", 1)[-1]).group(1)
            return full, debian_version(ver)
    res = subprocess.run(["perl", hipify, "-version"], text=True, capture_output=True)
    m = re.search(r"(\d+)\.(\d+)(?:\.(\d+))?", res.stderr + res.stdout)
    if not m:
        raise SystemExit("gen_packs: cannot tell hipify-perl's version")
    return m.group(0), f"{m.group(1)}.{m.group(2)}"


@dataclass
class NameResults:
    """What one hipify-perl made of the candidate lines."""
    converted: dict[str, str] = field(default_factory=dict)     # CUDA name -> HIP name
    unsupported: dict[str, str] = field(default_factory=dict)   # CUDA name -> warning kind
    experimental: dict[str, str] = field(default_factory=dict)  # CUDA name -> warning text / how converted
    exp_names: list[str] = field(default_factory=list)          # names given a second run with -experimental
    odd: list[str] = field(default_factory=list)                # lines that became something else than a name


def line_name(src: str) -> str:
    """The CUDA name of a candidate line (`NAME()` or `NAME::x()`)."""
    return src[: -len("::x()")] if src.endswith("::x()") else src[:-2]


def convert_names(hipify: str, lines: list[str], work: Path, hcache: Path, tag: str, exp_tag: str) -> NameResults:
    """Run hipify-perl over the candidate lines, then once more with -experimental over the names
    its warnings call experimental and that it left as they were."""
    res = run_hipify(hipify, lines, work, tag, cache=hcache)
    out = NameResults()
    for k, src in enumerate(lines, 1):
        name = line_name(src)
        outl = res.out[k]
        m = re.fullmatch(r"(.*)::x\(\)", outl) if src.endswith("::x()") else re.fullmatch(r"(.*)\(\)", outl)
        new = m.group(1) if m else None
        for what, wname, rest in res.warnings.get(k, []):
            if wname != name:
                continue  # hipify-perl matches its lists as substrings
            if what in ("unsupported identifier", "unsupported device function"):
                out.unsupported[name] = what
            elif what == "experimental identifier":
                out.experimental[name] = rest
        if new is None or not IDENT_RE.match(new):
            out.odd.append(f"{src} -> {outl}")
            continue
        if new != name:
            out.converted[name] = new
    out.exp_names = sorted(n for n in out.experimental if n not in out.converted)
    if out.exp_names:
        res_x = run_hipify(hipify, [f"{n}()" for n in out.exp_names], work, exp_tag, ["-experimental"], cache=hcache)
        for k, n in enumerate(out.exp_names, 1):
            m = re.fullmatch(r"(.*)\(\)", res_x.out[k])
            if m and IDENT_RE.match(m.group(1)) and m.group(1) != n:
                out.converted[n] = m.group(1)
                out.experimental[n] = "converted with -experimental"
    return out


def _version_tuple(v: str) -> tuple[int, ...]:
    return tuple(int(x) for x in re.findall(r"\d+", v))


def pick_second_hipify(choice: str, primary: str, primary_full: str,
                       candidates: dict[str, tuple[str, Path]]) -> tuple[str, str] | None:
    """(path, version) of the hipify-perl that gets the names the first one leaves alone: `choice`
    when it is a path, none for "none", else ("auto") the newest hipify-perl of the inspected suites
    when it is newer than the first one."""
    if choice == "none":
        return None
    if choice != "auto":
        if not Path(choice).is_file():
            raise SystemExit(f"gen_packs: no hipify-perl at {choice}")
        return choice, hipify_version(choice, candidates)[0]
    primary_bytes = Path(primary).read_bytes()
    best: tuple[str, str] | None = None
    for _suite, (ver, path) in sorted(candidates.items()):
        if not path.is_file() or path.read_bytes() == primary_bytes:
            continue
        full = re.match(r"(\d+(?:\.\d+)*)", ver.split(":", 1)[-1]).group(1)
        if _version_tuple(full) > _version_tuple(primary_full) and (best is None or _version_tuple(full) > _version_tuple(best[1])):
            best = (str(path), full)
    return best


# --------------------------------------------------------------------------------------------
# CUDA side
# --------------------------------------------------------------------------------------------

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


# --------------------------------------------------------------------------------------------
# Packs
# --------------------------------------------------------------------------------------------

BARE = re.compile(r"^[A-Za-z0-9_-]+$")
ROW_ORDER = ["hip", "kind", "since", "older", "older_drop_arg"]
HEADER_ROW_ORDER = ["hip", "since", "older"]  # a [headers] row: the HIP header, from HIP `since`, else `older`


def toml_str(s: str) -> str:
    out = s.replace("\\", "\\\\").replace('"', '\\"')
    return f'"{out}"'


def toml_key(k: str) -> str:
    return k if BARE.match(k) else toml_str(k)


def toml_row(row: dict) -> str:
    parts = []
    for key in ROW_ORDER + sorted(set(row) - set(ROW_ORDER)):
        if key in row:
            v = row[key]
            parts.append(f"{key} = {v}" if isinstance(v, int) else f"{key} = {toml_str(v)}")
    return "{ " + ", ".join(parts) + " }"


def write_pack(path: Path, family: str, generated: str, names: dict, unsupported: dict, headers: dict,
               sources: dict[str, dict[str, str]] | None = None, legend: str = "", inspected_from: str = "") -> None:
    """Write one pack; `sources` (table -> key -> text) marks rows with a trailing comment saying
    where they come from, and `legend` (a comment at the top) says what the marks mean."""
    code, title = FAMILIES[family]
    sources = sources or {}

    def row_line(table: str, key: str, row: dict) -> str:
        line = f"{toml_key(key)} = {toml_row(row)}"
        src = sources.get(table, {}).get(key)
        return f"{line}  # {src}" if src else line

    lines = [f"# Generated by scripts/gen_packs.py -- do not edit; put corrections in overrides.toml."]
    if legend:
        lines += ["# " + part for part in textwrap.wrap(legend, 98)]
    lines += [
        "",
        "[pack]",
        f"family = {toml_str(family)}",
        f"title = {toml_str(title)}",
        f"code = {toml_str(code)}",
        f"generated = {toml_str(generated)}",
        *([f"inspected_from = {toml_str(inspected_from)}"] if inspected_from else []),
        "",
        "[names]",
    ]
    lines += [row_line("names", k, names[k]) for k in sorted(names)]
    lines += ["", "[unsupported]"]
    lines += [row_line("unsupported", k, unsupported[k]) for k in sorted(unsupported)]
    lines += ["", "[headers]"]
    lines += [row_line("headers", k, headers[k]) for k in sorted(headers)]
    text = "\n".join(lines) + "\n"
    tomllib.loads(text)  # must parse
    path.write_text(text, encoding="utf-8")


def header_row_since(sets: list[HeaderSet], fam: str, hip: str) -> str:
    """The `since` of a header row: the first inspected release whose package ships the HIP header `hip`, when it
    is newer than the family's oldest inspected release (hip/hip_math_constants.h: in 5.7.1 and 6.4.3, not in
    5.2.3); "" otherwise."""
    mine = [s for s in sets if s.package in FAMILY_PACKAGES.get(fam, ("libamdhip64-dev",))]
    having = [s.release for s in mine if (s.root / hip).is_file()]
    if not having:
        return ""
    first, floor = min(having, key=version_key), min((s.release for s in mine), key=version_key)
    return first if version_key(first) > version_key(floor) else ""


def version_key(v: str) -> tuple[int, int]:
    a, _, b = v.partition(".")
    return int(a), int(b or 0)


def load_overrides(path: Path) -> dict:
    if not path.exists():
        return {}
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    for fam, tables in data.items():
        if fam not in FAMILIES:
            raise SystemExit(f"gen_packs: {path}: unknown family [{fam}]")
        unknown = set(tables) - {"names", "unsupported", "headers", "drop"}
        if unknown:
            raise SystemExit(f"gen_packs: {path}: [{fam}] has unknown table(s) {sorted(unknown)}")
    return data


IDENT_RE = re.compile(r"^[A-Za-z_]\w*$")
VERSION_RE = re.compile(r"^\d+\.\d+$")
KINDS = {"function", "type", "enum", "macro", "namespace"}


def validate(packs: dict[str, dict]) -> None:
    """The checks docs/packs.md asks for (and a name belongs to exactly one family)."""
    seen: dict[str, str] = {}
    for fam, p in packs.items():
        for table in ("names", "unsupported", "headers"):
            for k, row in p[table].items():
                where = f"{fam}.{table}.{k}"
                if table != "headers":
                    if not IDENT_RE.match(k):
                        raise SystemExit(f"gen_packs: {where}: not a C identifier")
                    if row.get("kind") not in KINDS:
                        raise SystemExit(f"gen_packs: {where}: bad kind {row.get('kind')}")
                    other = seen.get(k)
                    if other:
                        raise SystemExit(f"gen_packs: {k} is in {other} and in {where}")
                    seen[k] = where
                if table == "names":
                    if set(row) - set(ROW_ORDER) or not {"hip", "kind", "since"} <= set(row):
                        raise SystemExit(f"gen_packs: {where}: bad keys {sorted(row)}")
                    if not IDENT_RE.match(row["hip"]) or not VERSION_RE.match(row["since"]):
                        raise SystemExit(f"gen_packs: {where}: bad hip name or since")
                    if "older_drop_arg" in row and "older" not in row:
                        raise SystemExit(f"gen_packs: {where}: older_drop_arg needs older")
                    if "older" in row and not IDENT_RE.match(row["older"]):
                        raise SystemExit(f"gen_packs: {where}: bad older")
                if table == "unsupported" and set(row) != {"kind"}:
                    raise SystemExit(f"gen_packs: {where}: bad keys {sorted(row)}")
                if table == "headers":
                    if "hip" not in row or set(row) - set(HEADER_ROW_ORDER):
                        raise SystemExit(f"gen_packs: {where}: bad keys {sorted(row)}")
                    if "since" in row and not VERSION_RE.match(row["since"]):
                        raise SystemExit(f"gen_packs: {where}: bad since")
                    if "older" in row and ("since" not in row or not row["older"]):
                        raise SystemExit(f"gen_packs: {where}: older needs since and a header")
    hseen: dict[str, str] = {}
    for fam, p in packs.items():
        for k in p["headers"]:
            if k in hseen:
                raise SystemExit(f"gen_packs: header {k} is in {hseen[k]} and {fam}")
            hseen[k] = fam


# --------------------------------------------------------------------------------------------
# main
# --------------------------------------------------------------------------------------------

def default_hipify() -> str:
    prefix = os.environ.get("HIPMIGRATE_TOOLCHAIN", "/opt/hipmigrate/toolchain")
    for cand in (Path(prefix) / "bin" / "hipify-perl", shutil.which("hipify-perl")):
        if cand and Path(cand).is_file():
            return str(cand)
    return str(Path(prefix) / "bin" / "hipify-perl")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hipify-perl", default=default_hipify(), help="hipify-perl to run (default: the toolchain's)")
    ap.add_argument("--out", default=str(ROOT / "rules" / "mappings"), help="folder of the packs (default rules/mappings)")
    ap.add_argument("--cache", default="/tmp/hipmigrate-gen-cache", help="download cache (default /tmp/hipmigrate-gen-cache)")
    ap.add_argument("--cuda-include", default="/usr/local/cuda/include", help="CUDA toolkit headers")
    ap.add_argument("--installed-hip", default="/usr/include/hip", help="HIP headers checked at the end")
    ap.add_argument("--suites", default=",".join(DEFAULT_SUITES), help="Debian suites whose HIP headers give `since`")
    ap.add_argument("--overrides", help="hand-written corrections (default: <out>/overrides.toml)")
    ap.add_argument("--refresh", action="store_true", help="download the Debian packages again")
    ap.add_argument("--unpinned", action="store_true", help="take the newest NVIDIA wheels instead of the pinned ones")
    ap.add_argument("--keep-work", action="store_true", help="keep hipify-perl's scratch files (printed)")
    ap.add_argument("--second-hipify-perl", default="auto",
                    help="hipify-perl run over the names the first one leaves alone: a path, `none`, or `auto` "
                         "(default: the newest hipify-perl of the inspected suites, when newer than the first)")
    args = ap.parse_args(argv)

    hipify = args.hipify_perl
    if not Path(hipify).is_file():
        raise SystemExit(f"gen_packs: no hipify-perl at {hipify} (run scripts/install-toolchain or pass --hipify-perl)")
    cache = Path(args.cache)
    cache.mkdir(parents=True, exist_ok=True)
    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    cuda_inc = Path(args.cuda_include)
    cuda_h = cuda_inc / "cuda.h"
    if not cuda_h.is_file():
        raise SystemExit(f"gen_packs: no CUDA headers in {cuda_inc}")
    cv = int(re.search(r"#define\s+CUDA_VERSION\s+(\d+)", read_text(cuda_h)).group(1))
    cuda_version = f"{cv // 1000}.{cv % 1000 // 10}"

    # 1. inputs
    wheels = fetch_wheels(cache, args.unpinned)
    suites = [s for s in args.suites.split(",") if s]
    sets, suite_hipify = fetch_hip_headers(cache, suites, args.refresh)
    hipify_full, hipify_release = hipify_version(hipify, suite_hipify)
    log(f"hipify-perl {hipify_full} ({hipify}); CUDA {cuda_version}; "
        f"HIP header sets: {', '.join(sorted({f'{s.package} {s.release}' for s in sets}))}")

    # 2. CUDA declarations and headers
    decls, cuda_headers, sstats, attr_macros = scan_cuda(cuda_inc, [p for _, p in wheels.values()])
    dropped = 0
    for _, legacy_inc in fetch_wheels(cache, args.unpinned, LEGACY_WHEELS).values():
        old_decls, old_headers, _, _ = scan_cuda(legacy_inc, [])
        for name, d in old_decls.items():
            if name not in decls and d.kind != "macro" and not d.internal:
                decls[name] = d
                dropped += 1
        for header, fam in old_headers.items():
            cuda_headers.setdefault(header, fam)
    log(f"{dropped} names of CUDA 12.8's runtime headers that CUDA {cuda_version}'s no longer declare")
    log(f"scanned {sstats['headers']} CUDA headers: {len(decls)} declared names, {len(cuda_headers)} header files")

    # 3. hipify-perl
    cand_names = sorted(n for n, d in decls.items() if d.kind != "namespace")
    cand_ns = sorted(n for n, d in decls.items() if d.kind == "namespace" and not d.internal)
    lines = [f"{n}()" for n in cand_names] + [f"{n}::x()" for n in cand_ns]
    hdrs = sorted(cuda_headers)
    work = Path(tempfile.mkdtemp(prefix="gen-packs-", dir=str(cache)))
    log(f"running hipify-perl over {len(lines)} names and {len(hdrs)} headers")
    hcache = cache / "hipify"
    first = convert_names(hipify, lines, work, hcache, "names", "experimental")
    converted, unsupported_warned, exp_names, odd = first.converted, first.unsupported, first.exp_names, first.odd
    res_h = run_hipify(hipify, [f"#include <{h}>" for h in hdrs], work, "headers_angle", cache=hcache)
    res_q = run_hipify(hipify, [f'#include "{h}"' for h in hdrs], work, "headers_quote", cache=hcache)

    header_map: dict[str, str] = {}
    header_odd: list[str] = []
    for k, h in enumerate(hdrs, 1):
        a = re.fullmatch(r"#include <(.*)>", res_h.out[k])
        q = re.fullmatch(r'#include "(.*)"', res_q.out[k])
        ha = a.group(1) if a else None
        hq = q.group(1) if q else None
        if ha != hq:
            header_odd.append(f"{h}: <{ha}> vs \"{hq}\"")
        if ha is not None and ha != h:
            header_map[h] = ha

    # 3b. the second (newer) hipify-perl, over the names and headers the first one leaves alone
    second = pick_second_hipify(args.second_hipify_perl, hipify, hipify_full, suite_hipify)
    second_label = f"hipify-perl {second[1]}" if second else None
    sec = NameResults()
    sec_headers: dict[str, str] = {}
    lines2: list[str] = []
    disagree: dict[str, tuple[str, str]] = {}
    if second:
        lines2 = [src for src in lines if line_name(src) not in converted]
        odd_headers = {o.split(":", 1)[0] for o in header_odd}
        hdrs2 = [h for h in hdrs if h not in header_map and h not in odd_headers]
        log(f"running {second_label} ({second[0]}) over the {len(lines2)} names and {len(hdrs2)} headers "
            f"hipify-perl {hipify_full} leaves alone")
        sec = convert_names(second[0], lines2, work, hcache, "names2", "experimental2")
        # for the summary only: where the two disagree on the names the first one converts
        lines_c = [src for src in lines if line_name(src) in converted]
        sec_c = convert_names(second[0], lines_c, work, hcache, "names2c", "experimental2c")
        disagree = {n: (hip, sec_c.converted.get(n, n)) for n, hip in converted.items() if sec_c.converted.get(n, n) != hip}
        res_h2 = run_hipify(second[0], [f"#include <{h}>" for h in hdrs2], work, "headers2", cache=hcache)
        for k, h in enumerate(hdrs2, 1):
            a = re.fullmatch(r"#include <(.*)>", res_h2.out[k])
            if a and a.group(1) != h:
                sec_headers[h] = a.group(1)

    # 4. HIP declarations by release
    log("indexing HIP header sets")
    by_set: list[tuple[HeaderSet, set[str], set[str]]] = []
    for s in sets:
        by_set.append((s, hip_identifiers(s.root), hip_header_files(s.root)))
    all_hip_ids: set[str] = set().union(*(ids for _, ids, _ in by_set)) if by_set else set()
    all_hip_files: set[str] = set().union(*(f for _, _, f in by_set)) if by_set else set()
    installed_ids = hip_identifiers(Path(args.installed_hip))

    def since_of(hip_name: str, packages: tuple[str, ...] | None = None) -> str | None:
        found = [s.release for s, ids, _ in by_set if hip_name in ids and (packages is None or s.package in packages)]
        return min(found, key=version_key) if found else None

    # which answers of the second hipify-perl become rows: the HIP name must be declared by the
    # inspected headers (those of the family's HIP library, where it has one)
    second_rows: dict[str, str] = {}
    second_left: dict[str, list[str]] = defaultdict(list)   # family -> "NAME -> HIP (why)"
    for name, hip in sorted(sec.converted.items()):
        d = decls[name]
        pkgs = FAMILY_PACKAGES.get(d.family)
        if hip in CXX_KEYWORDS:
            second_left[d.family].append(f"{name} -> {hip} (a C++ keyword)")
        elif since_of(hip, pkgs) is None:
            where = "/".join(pkgs) if pkgs else "any inspected package"
            second_left[d.family].append(f"{name} -> {hip} (not declared in {where})")
        else:
            second_rows[name] = hip
    second_header_rows: dict[str, str] = {}
    second_header_left: list[str] = []
    for h, hip in sorted(sec_headers.items()):
        folder = f"{hip.rsplit('.', 1)[0]}/{hip}"  # hipsolver.h -> hipsolver/hipsolver.h (the packages' layout)
        if hip in all_hip_files:
            second_header_rows[h] = hip
        elif "/" not in hip and folder in all_hip_files:
            second_header_rows[h] = folder
        else:
            second_header_left.append(f"{h} -> \"{hip}\"")

    # 4b. CUDA's bfloat16 functions that HIP's amd_hip_bf16.h declares under the same name: rows mapping the
    # name to itself. `since` is the first HIP release whose headers have the name at all: older than the
    # bf16 header where HIP had the name for __half (__hadd in hip_fp16.h), which a token cannot tell apart.
    bf16_first = bf16_functions_hip_shares(cuda_inc, sets, attr_macros)
    bf16_rows = {n: since_of(n, ("libamdhip64-dev",)) for n in bf16_first if n not in converted and n not in second_rows}
    bf16_taken = sorted(n for n in bf16_first if n not in bf16_rows)  # rows of a hipify-perl already

    # 5. packs
    packs = {fam: {"names": {}, "unsupported": {}, "headers": {}} for fam in FAMILIES}
    sources: dict[str, dict[str, str]] = {"names": {}, "headers": {}}  # rows not from the first hipify-perl
    for name, hip in sorted(converted.items()):
        d = decls[name]
        since = since_of(hip) or hipify_release  # no inspected header declares it: hipify-perl's version
        packs[d.family]["names"][name] = {"hip": hip, "kind": d.kind, "since": since}
    for name, hip in sorted(second_rows.items()):
        d = decls[name]
        packs[d.family]["names"][name] = {"hip": hip, "kind": d.kind, "since": since_of(hip, FAMILY_PACKAGES.get(d.family))}
        sources["names"][name] = second_label
    for name, since in sorted(bf16_rows.items()):
        d = decls[name]
        packs[d.family]["names"][name] = {"hip": name, "kind": d.kind, "since": since}
        sources["names"][name] = f"amd_hip_bf16.h {bf16_first[name]}"
    rccl_sets = [(s, ids) for s, ids, _ in by_set if s.package == "librccl-dev"]
    rccl_ids: set[str] = set().union(*(ids for _, ids in rccl_sets)) if rccl_sets else set()
    nccl_kept: list[str] = []  # NCCL API names that RCCL declares (supported under the same name)
    unsupported_left: list[str] = []
    for name, d in sorted(decls.items()):
        if name in converted or name in second_rows or name in bf16_rows:
            continue
        api = not (d.kind == "namespace" or d.internal or not CUDA_API.match(name) or NOISE.search(name)
                   or name in attr_macros)
        if d.family == "nccl" and name in rccl_ids:
            if api or name in unsupported_warned:
                nccl_kept.append(name)
            continue  # RCCL keeps the NCCL names: whatever it declares is supported as it is
        if name in unsupported_warned:
            packs[d.family]["unsupported"][name] = {"kind": d.kind}
            continue
        if not api:
            continue
        if name in all_hip_ids:
            continue  # HIP keeps the name (e.g. __half)
        packs[d.family]["unsupported"][name] = {"kind": d.kind}
        unsupported_left.append(name)
    for h, hip in sorted(header_map.items()):
        packs[cuda_headers[h]]["headers"][h] = {"hip": hip}
    for h, hip in sorted(second_header_rows.items()):
        packs[cuda_headers[h]]["headers"][h] = {"hip": hip}
        sources["headers"][h] = second_label

    for fam, p in packs.items():
        for row in p["headers"].values():
            since = header_row_since(sets, fam, row["hip"]) if row["hip"] else ""
            if since:
                row["since"] = since

    # 6. overrides
    ov_path = Path(args.overrides) if args.overrides else out_dir / "overrides.toml"
    if not args.overrides and not ov_path.exists():
        ov_path = ROOT / "rules" / "mappings" / "overrides.toml"
    overrides = load_overrides(ov_path)
    applied = 0
    ov_notes: list[str] = []
    oldest_hip = min((s for s in sets if s.package == "libamdhip64-dev"), key=lambda s: version_key(s.release), default=None)
    oldest_ids = next((ids for s, ids, _ in by_set if s is oldest_hip), set())
    oldest_files = next((files for s, _, files in by_set if s is oldest_hip), set())

    def header_since(hip_header: str) -> str | None:
        found = [s.release for s, _, files in by_set if hip_header in files]
        return min(found, key=version_key) if found else None
    for fam, tables in overrides.items():
        for table in ("names", "unsupported", "headers"):
            for key, row in tables.get(table, {}).items():
                if table == "names":
                    found = since_of(row["hip"])
                    note = f"{key}: since {row['since']} (headers inspected: {found or 'none'})"
                    if row.get("older"):
                        ok = row["older"] in oldest_ids
                        note += f", older {row['older']} {'in' if ok else 'NOT in'} HIP {oldest_hip.release if oldest_hip else '?'}"
                    ov_notes.append(note)
                elif table == "headers" and row["hip"] and row["hip"] not in all_hip_files:
                    ov_notes.append(f"header {key} -> {row['hip']}: NOT shipped by any inspected package")
                elif table == "headers" and "since" in row:
                    found = header_since(row["hip"])
                    note = f"header {key} -> {row['hip']}: since {row['since']} (shipped from: {found or 'none'})"
                    if row.get("older"):
                        ok = row["older"] in oldest_files
                        note += f", older {row['older']} {'in' if ok else 'NOT in'} HIP {oldest_hip.release if oldest_hip else '?'}"
                    ov_notes.append(note)
                for p in packs.values():
                    if table == "headers":
                        p["headers"].pop(key, None)
                    else:
                        p["names"].pop(key, None)
                        p["unsupported"].pop(key, None)
                packs[fam][table][key] = dict(row)
                if table == "unsupported":
                    sources["names"].pop(key, None)
                else:
                    sources[table][key] = "overrides.toml"
                applied += 1
        for key in tables.get("drop", {}).get("names", []):
            for p in packs.values():
                p["names"].pop(key, None)
                p["unsupported"].pop(key, None)
                p["headers"].pop(key, None)
            sources["names"].pop(key, None)
            sources["headers"].pop(key, None)
            applied += 1
    validate(packs)
    headers_missing = [f"{h} -> {r[key]}" for p in packs.values() for h, r in sorted(p["headers"].items())
                       for key in ("hip", "older") if r.get(key) and r[key] not in all_hip_files]

    # 7. write
    releases = sorted({s.version.split("-")[0].split("+")[0] for s in sets if s.package == "libamdhip64-dev"},
                      key=lambda v: [int(x) for x in re.findall(r"\d+", v)])
    libs = ", ".join(f"{d.replace('nvidia-', '').replace('-cu13', '')} {v}" for d, (v, _) in sorted(wheels.items()))
    engines = f"hipify-perl {hipify_full}" + (f" (then {second_label} for the names it leaves alone)" if second else "")
    generated = (f"scripts/gen_packs.py from CUDA {cuda_version} headers ({libs}), {engines}, "
                 f"HIP headers {'/'.join(releases)} (Debian {'/'.join(suites)})")
    bf16_legend = (" `# amd_hip_bf16.h X`: a function of CUDA's cuda_bf16.h that HIP's amd_hip_bf16.h declares under"
                   " the same name from HIP X (`since` is older where HIP had the name before, for __half).")

    def legend(fam: str) -> str:
        """What the row comments of this family's pack mean (the bf16 mark only where the pack has one)."""
        bf16 = any(sources["names"].get(n, "").startswith("amd_hip_bf16.h") for n in packs[fam]["names"])
        return (f"Rows without a comment: hipify-perl {hipify_full}."
                + (f" `# {second_label}`: a name hipify-perl {hipify_full} leaves alone, converted by {second_label}"
                   f" to a name the inspected HIP headers declare." if second else "")
                + (bf16_legend if bf16 else "")
                + " `# overrides.toml`: a hand-checked row.")
    # The oldest release inspected of each family's HIP library: a `since` at or below it only says the name
    # was already there, maybe long before (Debian 12 packages no hipBLAS, so hipBLAS names start at 5.5).
    def inspected_from(fam: str) -> str:
        pkgs = FAMILY_PACKAGES.get(fam, ("libamdhip64-dev",))
        return min((s.release for s in sets if s.package in pkgs), key=version_key, default="")
    for fam, p in packs.items():
        write_pack(out_dir / f"{fam}.toml", fam, generated, p["names"], p["unsupported"], p["headers"],
                   sources=sources, legend=legend(fam), inspected_from=inspected_from(fam))

    # 8. summary
    print(f"packs written to {out_dir} ({generated})")
    src_count = {fam: Counter(sources["names"].get(n, f"hipify-perl {hipify_full}") for n in p["names"])
                 for fam, p in packs.items()}
    print(f"{'family':<20}{'code':<8}{'names':>7}{'unsupp.':>9}{'headers':>9}   rows by source")
    tot = Counter()
    for fam, p in packs.items():
        by_src = ", ".join(f"{c} {k}" for k, c in sorted(src_count[fam].items(), key=lambda kv: (-kv[1], kv[0])))
        print(f"{fam:<20}{FAMILIES[fam][0]:<8}{len(p['names']):>7}{len(p['unsupported']):>9}{len(p['headers']):>9}"
              f"   {by_src or '-'}")
        tot.update({"names": len(p["names"]), "unsupported": len(p["unsupported"]), "headers": len(p["headers"])})
        tot.update(src_count[fam])
    print(f"{'total':<28}{tot['names']:>7}{tot['unsupported']:>9}{tot['headers']:>9}   "
          + ", ".join(f"{tot[k]} {k}" for k in sorted({k for c in src_count.values() for k in c}, key=lambda k: -tot[k])))
    print(f"overrides applied: {applied}; unsupported by hipify-perl's warnings: "
          f"{sum(1 for n in unsupported_warned if n not in converted and n not in second_rows)}; "
          f"unconverted CUDA API names: {len(unsupported_left)}")
    print(f"converted only with -experimental: {sum(1 for n in exp_names if n in converted)}; "
          f"rows whose HIP name no inspected header declares: "
          f"{sum(1 for p in packs.values() for r in p['names'].values() if r['hip'] not in all_hip_ids)}")
    bf16_since = Counter(r["since"] for p in packs.values() for n, r in p["names"].items()
                         if sources["names"].get(n, "").startswith("amd_hip_bf16.h"))
    bf16_unsupp = sorted(n for n in packs["fp16"]["unsupported"] if "bfloat16" in n or "bf16" in n.lower())
    print(f"bfloat16: {len(bf16_first)} functions of {'/'.join(CUDA_BF16_HEADERS)} that {HIP_BF16_HEADER} declares "
          f"under the same name (first there: " + ", ".join(f"{c} in {v}" for v, c in sorted(Counter(
              bf16_first.values()).items(), key=lambda kv: version_key(kv[0]))) + "); rows mapping the name to itself: "
          f"{sum(bf16_since.values())} after overrides.toml (since: " + ", ".join(f"{v} {c}" for v, c in sorted(
              bf16_since.items(), key=lambda kv: version_key(kv[0]))) + ")"
          + (f"; rows of a hipify-perl already: {', '.join(bf16_taken)}" if bf16_taken else "")
          + f"; fp16 names with bfloat16/bf16 in them left [unsupported]: {len(bf16_unsupp)}")
    if second:
        second_rows_fam = Counter(decls[n].family for n in second_rows)
        fams = sorted(set(second_rows_fam) | set(second_left), key=FAMILY_ORDER.index)
        print(f"{second_label} over the {len(lines2)} names hipify-perl {hipify_full} leaves alone: converts "
              f"{len(sec.converted)} ({sum(1 for n in sec.exp_names if n in sec.converted)} with -experimental); "
              f"rows: {len(second_rows)} ({tot[second_label]} left after overrides.toml), "
              f"left out: {sum(len(v) for v in second_left.values())} (per family rows/left out: "
              + ", ".join(f"{f} {second_rows_fam[f]}/{len(second_left[f])}" for f in fams) + ")")
        for fam in fams:
            if second_left[fam]:
                print(f"  {fam}, left out ({len(second_left[fam])}): " + "; ".join(second_left[fam][:8])
                      + ("; ..." if len(second_left[fam]) > 8 else ""))
        dis_fam = Counter(decls[n].family for n in disagree)
        print(f"{second_label} answers differently for {len(disagree)} of the {len(converted)} names hipify-perl "
              f"{hipify_full} converts (their rows keep {hipify_full}'s answer; per family: "
              + ", ".join(f"{f} {dis_fam[f]}" for f in sorted(dis_fam, key=FAMILY_ORDER.index)) + ")")
        for fam in sorted(dis_fam, key=FAMILY_ORDER.index):
            ex = [f"{n}: {a} / {b}" for n, (a, b) in sorted(disagree.items()) if decls[n].family == fam]
            print(f"  {fam}: " + "; ".join(ex[:6]) + ("; ..." if len(ex) > 6 else ""))
        print(f"{second_label} over the headers hipify-perl {hipify_full} leaves alone: "
              + (", ".join(f"{h} -> {hip}" for h, hip in sorted(second_header_rows.items())) or "no rows")
              + (f"; left out (not shipped by an inspected package): {', '.join(second_header_left)}" if second_header_left else ""))
    else:
        print("no second hipify-perl (none newer among the inspected suites, or --second-hipify-perl none)")
    # NCCL: RCCL keeps the names, so its headers decide what is supported
    nccl_unsupp = sorted(packs["nccl"]["unsupported"])
    if rccl_sets:
        vers = []
        for s, _ in rccl_sets:
            h = s.root / "rccl" / "rccl.h"
            txt = read_text(h) if h.is_file() else ""
            api = ".".join(m.group(1) for m in re.finditer(r"#define\s+NCCL_(?:MAJOR|MINOR|PATCH)\s+(\d+)", txt))
            vers.append(f"{s.suite} {s.version}" + (f", NCCL API {api}" if api else ""))
        print(f"nccl: RCCL's headers (librccl-dev: {'; '.join(vers)}) declare {len(nccl_kept)} of the NCCL names "
              f"checked (kept as they are); {len(nccl_unsupp)} they lack are [unsupported]: {', '.join(nccl_unsupp)}")
    else:
        print(f"nccl: no inspected suite packages librccl-dev; the {len(nccl_unsupp)} [unsupported] names are "
              f"hipify-perl's verdict and the names no HIP header declares")
    # Cooperative groups: HIP keeps the names (namespace cooperative_groups of hip/hip_cooperative_groups.h)
    cg = sorted(n for n, d in decls.items() if d.family == "cooperative_groups" and not d.internal and d.kind != "macro")
    hip_core = set().union(*(ids for s, ids, _ in by_set if s.package == "libamdhip64-dev")) if by_set else set()
    cg_missing = [n for n in cg if n not in hip_core]
    print(f"cooperative_groups: of {len(cg)} public names, hipify-perl {hipify_full} renames "
          f"{sum(1 for n in cg if n in converted)}" + (f", {second_label} {sum(1 for n in cg if n in sec.converted)}" if second else "")
          + f"; HIP's headers declare {len(cg) - len(cg_missing)} under the same name; not declared: {', '.join(cg_missing) or '-'}")
    lower: dict[str, list[str]] = defaultdict(list)
    for ident in all_hip_ids:
        lower[ident.lower()].append(ident)
    for fam, p in packs.items():
        for name, row in sorted(p["names"].items()):
            if row["hip"] not in all_hip_ids and lower.get(row["hip"].lower()):
                print(f"  {fam}: {name} -> {row['hip']} is not declared, but {', '.join(sorted(lower[row['hip'].lower()]))} is")
    if odd:
        print(f"lines hipify-perl turned into something else than a name ({len(odd)}): " + "; ".join(odd[:20]))
    if header_odd:
        print(f"headers converted differently in <> and \"\" ({len(header_odd)}): " + "; ".join(header_odd[:10]))
    if headers_missing:
        print(f"header rows whose HIP header no inspected package ships ({len(headers_missing)}): " + "; ".join(headers_missing))
    for note in ov_notes:
        print(f"override {note}")
    rt = packs["runtime"]["names"]
    declared = [n for n, r in rt.items() if r["hip"] in installed_ids]
    missing = [n for n, r in rt.items() if r["hip"] not in installed_ids]
    inst = installed_release(Path(args.installed_hip))
    bad = [n for n in missing if version_key(rt[n]["since"]) <= version_key(inst)]
    print(f"runtime pack: {len(declared)} HIP names declared in {args.installed_hip} (HIP {inst}), {len(missing)} not"
          f" (all of those with since > {inst}: {'yes' if not bad else 'NO: ' + ', '.join(bad[:20])})")
    # The same with every identifier of the folder, comments and nvidia_detail/ included: a name found
    # only there is not usable on AMD (the rows' `since` stays above the installed release).
    raw: set[str] = set()
    for path in Path(args.installed_hip).rglob("*"):
        if path.is_file():
            raw.update(re.findall(r"[A-Za-z_]\w*", read_text(path)))
    only_raw = sorted(r["hip"] for r in rt.values() if r["hip"] in raw and r["hip"] not in installed_ids
                      and version_key(r["since"]) > version_key(inst))
    if only_raw:
        print(f"  named in {args.installed_hip} only by comments or nvidia_detail/ (not declared for AMD, "
              f"since > {inst}): {', '.join(only_raw)}")
    if args.keep_work:
        print(f"scratch files: {work}")
    else:
        shutil.rmtree(work, ignore_errors=True)
    return 0 if not bad else 1


if __name__ == "__main__":
    sys.exit(main())
