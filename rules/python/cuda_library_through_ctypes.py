"""A CUDA library loaded with ctypes: `ctypes.CDLL("libcudart.so")`, `ctypes.cdll.LoadLibrary("libcudart.so.12")`,
`CDLL("/usr/local/cuda/lib64/libcublas.so")`, `ctypes.util.find_library("cudart")`, and the functions called on the
handle (`lib.cudaMalloc`, `self._lib.cudaGetDeviceCount`, `getattr(lib, "cudaMemcpy")`).

Why: an AMD machine has no CUDA libraries, so loading them raises OSError; the HIP runtime is `libamdhip64.so`
(which also holds the driver API, `cu*` → `hip*`), and the libraries have HIP counterparts with the same calls under
hip names: cuBLAS → `libhipblas.so`, cuBLASLt → `libhipblaslt.so`, NVRTC → `libhiprtc.so`, NCCL → `librccl.so` (RCCL
keeps the `nccl*` names), cuRAND, cuFFT, cuSPARSE, cuSOLVER → `libhiprand.so`, `libhipfft.so`, `libhipsparse.so`,
`libhipsolver.so`, NVTX → `libroctx64.so`. ROCm builds of PyTorch ship `libamdhip64.so` in `torch/lib`.

Fix: the library name becomes the HIP library's (unversioned, without a CUDA folder) and every function read from the
handle in this file gets its HIP name from the mapping packs, all in one fix. It is SAFE unless the file defines a
`ctypes.Structure` (a struct laid out like CUDA's, `cudaDeviceProp` say, has another layout in HIP: UNSAFE, check it);
error codes other than success differ in value too (HAZ014). No fix when the handle goes where this file cannot follow
it, when a function has no HIP counterpart in the packs, or for NVML (`libnvidia-ml.so`: AMD's is `libamd_smi.so`,
with another API: port to amdsmi).
"""
from __future__ import annotations

import re

import libcst as cst
from libcst.helpers import get_full_name_for_node

from migrate.model import Applicability, Edit, Severity
from migrate.python.index import arguments, index, quoted, string_value
from migrate.rule import PythonRule, Invalid, Valid

LOADERS = {"ctypes.CDLL", "ctypes.cdll.LoadLibrary", "ctypes.PyDLL", "ctypes.pydll.LoadLibrary"}
FIND = "ctypes.util.find_library"
LIBRARIES = {"cudart": "amdhip64", "cuda": "amdhip64", "cublas": "hipblas", "cublasLt": "hipblaslt", "nvrtc": "hiprtc",
             "nccl": "rccl", "curand": "hiprand", "cufft": "hipfft", "cusparse": "hipsparse", "cusolver": "hipsolver",
             "nvToolsExt": "roctx64", "nvidia-ml": None}
FILE = re.compile(r"(?:.*/)?lib(" + "|".join(re.escape(n) for n in sorted(LIBRARIES, key=len, reverse=True)) +
                  r")\.so(?:\.[\d.]+)?")


class CudaLibraryThroughCtypes(PythonRule):
    code = "PY015"
    severity = Severity.WARNING
    example_path = "cuda_utils.py"
    examples = [
        Valid("import ctypes\nlib = ctypes.CDLL('libamdhip64.so')\nlib.hipDeviceSynchronize()\n"),
        Valid("import ctypes\nlibc = ctypes.CDLL('libc.so.6')\nlibc.printf(b'cudaMalloc')\n"),
        Invalid("import ctypes\n\n_cudart = ctypes.CDLL(\"libcudart.so.12\")\n\n\ndef device_count():\n"
                "    n = ctypes.c_int()\n    _cudart.cudaGetDeviceCount(ctypes.byref(n))\n    return n.value\n\n\n"
                "def sync():\n    fn = getattr(_cudart, \"cudaDeviceSynchronize\")\n    return fn()\n",
                fixed="import ctypes\n\n_cudart = ctypes.CDLL(\"libamdhip64.so\")\n\n\ndef device_count():\n"
                      "    n = ctypes.c_int()\n    _cudart.hipGetDeviceCount(ctypes.byref(n))\n    return n.value\n\n\n"
                      "def sync():\n    fn = getattr(_cudart, \"hipDeviceSynchronize\")\n    return fn()\n", line=3,
                message="libcudart.so.12 is a CUDA library, which an AMD machine does not have: its HIP counterpart is "
                        "libamdhip64.so, with the functions used here under their HIP names (cudaDeviceSynchronize → "
                        "hipDeviceSynchronize, cudaGetDeviceCount → hipGetDeviceCount)"),
        Invalid("import ctypes\nfrom ctypes.util import find_library\n\n\nclass Profiler:\n    def __init__(self):\n"
                "        self.lib = ctypes.cdll.LoadLibrary(find_library(\"cudart\"))\n\n    def start(self):\n"
                "        self.lib.cudaProfilerStart()\n",
                fixed="import ctypes\nfrom ctypes.util import find_library\n\n\nclass Profiler:\n    def __init__(self):\n"
                      "        self.lib = ctypes.cdll.LoadLibrary(find_library(\"amdhip64\"))\n\n    def start(self):\n"
                      "        self.lib.hipProfilerStart()\n", line=7),
        Invalid("import ctypes\n\nnvml = ctypes.CDLL('libnvidia-ml.so.1')\nnvml.nvmlInit_v2()\n", line=3),
    ]

    def check(self, ctx):
        if not re.search(rb"lib(cu|nv|nccl)|find_library", ctx.data):  # cheap test first
            return
        idx = index(ctx)
        structures = any(ctx.qualified_names(base.value) & {"ctypes.Structure", "ctypes.Union"}
                         for node in idx.module.body if isinstance(node, cst.ClassDef) for base in node.bases) or \
            b"Structure)" in ctx.data
        for call in idx.calls:
            names = ctx.qualified_names(call.func)
            if not names & LOADERS:
                continue
            arg = arguments(call).get(0, "name")
            if arg is None:
                continue
            found = _library(ctx, arg.value)
            if found is None:
                continue
            cuda, hip, node, edit = found
            start, end = ctx.byte_span(call)
            written = ctx.text(*ctx.byte_span(node))
            shown = string_value(node) if string_value(node) is not None else written
            if hip is None:
                yield self.finding(ctx, start, end, f"{shown} is NVIDIA's NVML, which an AMD machine does not have: "
                                   "AMD's counterpart is libamd_smi.so with another API; port the calls to amdsmi "
                                   "(the AMD SMI Python library)")
                continue
            head = f"{shown} is a CUDA library, which an AMD machine does not have: its HIP counterpart is lib{hip}.so"
            symbols = _symbol_uses(ctx, idx, call)
            if symbols is None:
                yield self.finding(ctx, start, end, f"{head}; the handle goes where this file cannot follow it: load "
                                   f"lib{hip}.so and rename the functions called on it by hand")
                continue
            renames, missing = [], []
            for use, name in symbols:
                mapping = ctx.packs.names.get(name)
                if mapping is None or mapping.newer_than(ctx.target_tuple):
                    missing.append(name)
                else:
                    renames.append((use, name, mapping.hip))
            if missing:
                yield self.finding(ctx, start, end, f"{head}; no HIP counterpart known here for "
                                   f"{', '.join(sorted(set(missing)))}: port those calls by hand")
                continue
            edits = [edit] + [Edit(*ctx.byte_span(use), _renamed(ctx, use, new)) for use, _, new in renames]
            pairs = sorted({f"{old} → {new}" for _, old, new in renames})
            message = head + (f", with the functions used here under their HIP names ({', '.join(pairs)})"
                              if pairs else "")
            if structures:
                message += ("; this file lays out ctypes structures, which may mirror CUDA's (cudaDeviceProp and "
                            "others differ in HIP): check them")
            yield self.finding(ctx, start, end, message, edits=edits, title=f"Load lib{hip}.so",
                               applicability=Applicability.UNSAFE if structures else Applicability.SAFE)


def _library(ctx, node: cst.BaseExpression):
    """(CUDA library, HIP library or None, the string node, the edit) for a CUDA library's file or
    find_library(name); None for anything else."""
    if isinstance(node, cst.Call) and FIND in ctx.qualified_names(node.func):
        arg = arguments(node).get(0, "name")
        value = string_value(arg.value) if arg is not None else None
        if value in LIBRARIES and isinstance(arg.value, cst.SimpleString):
            hip = LIBRARIES[value]
            return value, hip, arg.value, Edit(*ctx.byte_span(arg.value), quoted(arg.value, hip or value))
        return None
    value = string_value(node)
    match = FILE.fullmatch(value) if value is not None else None
    if match is None or not isinstance(node, cst.SimpleString):
        return None
    hip = LIBRARIES[match[1]]
    return match[1], hip, node, Edit(*ctx.byte_span(node), quoted(node, f"lib{hip}.so" if hip else value))


def _symbol_uses(ctx, idx, call: cst.Call) -> list[tuple[cst.CSTNode, str]] | None:
    """The functions read from the handle `call` makes, as (node to rename, CUDA name): `h.cudaX` (the `cudaX` name)
    and `getattr(h, "cudaX")` (the string); None when the handle is not kept in a name or a `self.` attribute that
    only this call sets."""
    parent = idx.parent(call)
    if not isinstance(parent, cst.Assign) or len(parent.targets) != 1:
        return [] if isinstance(parent, cst.Call) else None
    target = parent.targets[0].target
    holder = get_full_name_for_node(target)
    if holder is None or not isinstance(target, (cst.Name, cst.Attribute)):
        return None
    if isinstance(target, cst.Name) and len(idx.assigned.get(holder, [])) != 1:
        return None
    uses = []
    for attribute in idx.attributes:
        if attribute.value is not target and get_full_name_for_node(attribute.value) == holder:
            name = attribute.attr.value
            if _cuda_name(name):
                uses.append((attribute.attr, name))
    for other in idx.calls:
        if "builtins.getattr" in ctx.qualified_names(other.func) and len(other.args) >= 2 \
                and get_full_name_for_node(other.args[0].value) == holder:
            name = string_value(other.args[1].value)
            if name and _cuda_name(name) and isinstance(other.args[1].value, cst.SimpleString):
                uses.append((other.args[1].value, name))
    return uses


def _cuda_name(name: str) -> bool:
    return bool(re.match(r"(cuda|cu|nvrtc|cublas|curand|cufft|cusparse|cusolver|nvtx)[A-Z]", name)) or \
        name.startswith("nccl")


def _renamed(ctx, node: cst.CSTNode, new: str) -> str:
    return quoted(node, new) if isinstance(node, cst.SimpleString) else new
