"""A raw stream handle (`.cuda_stream` of a torch stream, `torch.cuda.current_stream().cuda_stream`) handed to
code outside PyTorch: a ctypes call (`ctypes.c_void_p(s.cuda_stream)`, a function of a `ctypes.CDLL(...)` /
`ctypes.cdll.LoadLibrary(...)` library), CuPy (`cupy.cuda.ExternalStream(...)`), PyCUDA, Numba's CUDA target or
NVIDIA's cuda-python bindings (`cuda.cudart`, `cuda.bindings`). The handle may go there directly, inside another
expression, or through a name assigned once (`h = torch.cuda.current_stream().cuda_stream`).

Why: on ROCm the integer is a `hipStream_t`. A library built for CUDA (libcudart, libcublas, an extension
compiled by nvcc, PyCUDA, Numba's CUDA target, cuda-python) cannot use it and usually is not there at all; CuPy
accepts it only in its ROCm build; a library of your own must be rebuilt with hipcc and take a hipStream_t.

No fix: the library on the other side has to change. A handle that stays inside PyTorch (printed, compared,
given to a torch function) is not reported.
"""
from __future__ import annotations

import libcst as cst

from migrate.model import Severity
from migrate.python.index import index, string_value
from migrate.rule import PythonRule, Invalid, Valid

# qualified-name prefixes of CUDA-only Python bindings, and what to say about each
BINDINGS = {
    "cupy": "CuPy takes it only in its ROCm build (a cupy-rocm package), where ExternalStream wraps a hipStream_t",
    "pycuda": "PyCUDA has no ROCm build: port this call to HIP (a hipcc-built library, or CuPy's ROCm build)",
    "numba.cuda": "Numba's CUDA target does not run on AMD GPUs: port this kernel (HIP, Triton or CuPy's ROCm build)",
    "cuda": "NVIDIA's cuda-python bindings do not run on ROCm: use HIP's Python bindings (hip-python)",
}
CTYPES_LOADERS = {"ctypes.CDLL", "ctypes.cdll.LoadLibrary", "ctypes.PyDLL", "numpy.ctypeslib.load_library"}
CUDA_LIBRARIES = ("cudart", "cublas", "cudnn", "cufft", "curand", "cusparse", "cusolver", "nvrtc", "nccl", "libcuda")


class RawCudaStreamHandle(PythonRule):
    code = "PY007"
    severity = Severity.WARNING
    fixable = False
    example_path = "kernels.py"
    examples = [
        Valid("import torch\n\ns = torch.cuda.Stream()\nprint(s.cuda_stream)\nok = s.cuda_stream != 0\n"),
        Valid("import ctypes\nimport torch\n\nn = ctypes.c_int(4)\n"),
        Invalid("import ctypes\nimport torch\n\nlib = ctypes.CDLL('libcudart.so')\n"
                "lib.cudaStreamSynchronize(ctypes.c_void_p(torch.cuda.current_stream().cuda_stream))\n", line=5,
                message="a raw stream handle (.cuda_stream) handed to libcudart.so: on ROCm it is a hipStream_t; "
                        "libcudart.so is a CUDA library, absent on ROCm: load HIP's counterpart (libamdhip64.so "
                        "for the runtime)"),
        Invalid("import cupy\nimport torch\n\nh = torch.cuda.current_stream().cuda_stream\n"
                "with cupy.cuda.ExternalStream(h):\n    y = cupy.arange(4)\n", line=5),
        Invalid("import ctypes\n\nmylib = ctypes.cdll.LoadLibrary('./build/libkernels.so')\n\n"
                "def run(x, stream):\n    mylib.launch(x.data_ptr(), stream.cuda_stream)\n", line=6),
    ]

    def check(self, ctx):
        if b"cuda_stream" not in ctx.data:  # cheap test first: most files never name it
            return
        idx = index(ctx)
        libraries = self._libraries(ctx, idx)
        handles = {name for name in idx.assigned if _holds_handle(idx.followed(name))}
        reported: list[tuple[int, int]] = []  # arguments already reported: calls inside them are not again
        for call in idx.calls:
            target = self._consumer(ctx, call, libraries)
            if target is None:
                continue
            where = ctx.byte_span(call)
            if any(s <= where[0] and where[1] <= e for s, e in reported):
                continue
            for arg in call.args:
                if _carries_handle(arg.value, handles):
                    start, end = ctx.byte_span(arg)
                    reported.append((start, end))
                    yield self.finding(ctx, start, end, "a raw stream handle (.cuda_stream) handed to "
                                       f"{target[0]}: on ROCm it is a hipStream_t; {target[1]}")

    @staticmethod
    def _libraries(ctx, idx) -> dict[str, str]:
        """Names bound (once) to a ctypes library: name → the file it loads (or "a ctypes library")."""
        found = {}
        for name in idx.assigned:
            value = idx.followed(name)
            if isinstance(value, cst.Call) and ctx.qualified_names(value.func) & CTYPES_LOADERS:
                path = string_value(value.args[0].value) if value.args else None
                found[name] = path or "a ctypes library"
            elif isinstance(value, cst.Attribute) and any(n.startswith("ctypes.cdll.")
                                                          for n in ctx.qualified_names(value)):
                found[name] = value.attr.value
        return found

    def _consumer(self, ctx, call: cst.Call, libraries: dict[str, str]) -> tuple[str, str] | None:
        """(what is called, what to do) when `call` leaves PyTorch for CUDA-side code."""
        func = call.func
        base = func.value if isinstance(func, cst.Attribute) else None
        if isinstance(base, cst.Name) and base.value in libraries and not ctx.qualified_names(base) - {base.value}:
            return libraries[base.value], _library_advice(libraries[base.value])
        for name in sorted(ctx.qualified_names(func)):
            if name.startswith("ctypes."):
                return "ctypes", "the library that receives it must be built with hipcc and take a hipStream_t"
            for prefix, advice in BINDINGS.items():
                if name == prefix or name.startswith(prefix + "."):
                    return name, advice
        return None


def _library_advice(path: str) -> str:
    lowered = path.lower()
    if any(lib in lowered for lib in CUDA_LIBRARIES):
        return (f"{path} is a CUDA library, absent on ROCm: load HIP's counterpart (libamdhip64.so for the "
                "runtime)")
    return f"{path} must be rebuilt with hipcc for ROCm and take a hipStream_t"


def _holds_handle(node: cst.CSTNode | None) -> bool:
    return isinstance(node, cst.Attribute) and node.attr.value == "cuda_stream"


def _carries_handle(node: cst.CSTNode, handles: set[str]) -> bool:
    """Does the expression contain `.cuda_stream`, or a name assigned from one?"""
    if _holds_handle(node) or (isinstance(node, cst.Name) and node.value in handles):
        return True
    found = False

    class _Find(cst.CSTVisitor):
        def visit_Attribute(self, n: cst.Attribute) -> bool:
            nonlocal found
            found = found or n.attr.value == "cuda_stream"
            return not found

        def visit_Name(self, n: cst.Name) -> None:
            nonlocal found
            found = found or n.value in handles

    node.visit(_Find())
    return found
