"""`torch.utils.cpp_extension.CUDA_HOME` used as a path, or tested to decide whether to build the GPU code:
`CUDA_HOME + "/bin/nvcc"`, `os.path.join(CUDA_HOME, "bin", "nvcc")`, `f"{CUDA_HOME}/bin/nvcc"`,
`get_cuda_bare_metal_version(CUDA_HOME)`, `subprocess.check_output([CUDA_HOME + "/bin/nvcc", "-V"])`, and
`if CUDA_HOME is None:` / `if CUDA_HOME is not None:` / `if not CUDA_HOME:` / `CUDA_HOME and ...`; however the name is
reached (`from torch.utils.cpp_extension import CUDA_HOME`, `cpp_extension.CUDA_HOME`, an alias).

Why: with a ROCm build of torch `CUDA_HOME` is None (torch 2.13 looks for a CUDA toolkit only in CUDA builds; older
releases looked on any machine, and a ROCm machine has none); it sets `torch.utils.cpp_extension.ROCM_HOME` instead. So a path built
from it raises TypeError when setup.py is imported, running nvcc from it fails, and a test `CUDA_HOME is None`
silently takes the CPU-only branch (the extension is built without its GPU code, or the build is refused).

What to use (reported, no fix: what the code does with the toolkit decides): `ROCM_HOME` (from the same module) for
the toolkit's folder, `torch.version.hip` (or `IS_HIP_EXTENSION`) to know the build is for ROCm, `hipcc --version`
or `torch.version.hip` for the HIP version; nvcc-version gates (`bare_metal_version >= Version("11.8")`) have no
meaning there. A use in code that never runs on ROCm (the `else:` of `if IS_HIP_EXTENSION:`) is not reported, nor
a test whose code around already handles ROCm (`elif ROCM_HOME is not None:`, `CUDA_HOME is None and ROCM_HOME
is None`; migrate/python/build_tests.py), nor a use that only such a test reaches.
"""
from __future__ import annotations

import libcst as cst

from migrate.model import Severity
from migrate.python.build_tests import Offsets, evaluated_after, guarded, handles_rocm
from migrate.python.index import index
from migrate.rule import PythonRule, Invalid, Valid

NAME = "torch.utils.cpp_extension.CUDA_HOME"
PATH = ("CUDA_HOME is None with a ROCm build of PyTorch (which sets ROCM_HOME instead), so "
        "this {what} fails there: use torch.utils.cpp_extension.ROCM_HOME on ROCm (torch.version.hip tells which), "
        "with hipcc in place of nvcc")
TEST = ("CUDA_HOME is None with a ROCm build of PyTorch (which sets ROCM_HOME instead), so this test takes the "
        "no-CUDA branch there and the extension's GPU code is left out or refused: test ROCM_HOME (or "
        "torch.version.hip) as well")


class CppExtensionCudaHome(PythonRule):
    code = "PY013"
    severity = Severity.WARNING
    fixable = False
    example_path = "setup.py"
    examples = [
        Valid("from torch.utils.cpp_extension import ROCM_HOME\nhipcc = ROCM_HOME + '/bin/hipcc'\n"),
        Valid("import os\nCUDA_HOME = os.environ.get('CUDA_HOME', '/usr/local/cuda')\nnvcc = CUDA_HOME + '/bin/nvcc'\n"),
        Valid("from torch.utils.cpp_extension import CUDA_HOME\nprint('toolkit:', CUDA_HOME)\n"),
        Valid("import torch\nfrom torch.utils.cpp_extension import CUDA_HOME\n\nif torch.version.hip:\n"
              "    flags = ['-O3']\nelse:\n    flags = ['-O3', '-DNVCC=' + CUDA_HOME + '/bin/nvcc']\n"),
        Valid("import torch\nfrom torch.utils.cpp_extension import CUDA_HOME, ROCM_HOME\n\n"
              "has_rocm = torch.version.hip is not None\n\n\ndef toolkit_bin():\n    if not has_rocm:\n"
              "        return CUDA_HOME + '/bin'\n    return ROCM_HOME + '/bin'\n"),
        # ROCm handled beside the test: an elif, the same expression
        Valid("from torch.utils.cpp_extension import CUDA_HOME, ROCM_HOME\n\nif CUDA_HOME is not None:\n"
              "    nvcc = CUDA_HOME + '/bin/nvcc'\nelif ROCM_HOME is not None:\n    hipcc = ROCM_HOME + '/bin/hipcc'\n"),
        Valid("from torch.utils.cpp_extension import CUDA_HOME, ROCM_HOME\n\nif CUDA_HOME is None and ROCM_HOME is None:\n"
              "    raise RuntimeError('no GPU toolkit found')\n"),
        Invalid("import subprocess\n\nfrom torch.utils.cpp_extension import CUDA_HOME\n\n\n"
                "def get_cuda_bare_metal_version(cuda_dir):\n"
                "    raw_output = subprocess.check_output([cuda_dir + \"/bin/nvcc\", \"-V\"], universal_newlines=True)\n"
                "    return raw_output.split()\n\n\n"
                "if CUDA_HOME is None:\n    raise RuntimeError(\"nvcc was not found\")\n"
                "_, bare_metal_version = get_cuda_bare_metal_version(CUDA_HOME)\n", line=11,
                message=TEST),
        Invalid("import os\nimport subprocess\nimport torch.utils.cpp_extension as ext\n\n"
                "nvcc = os.path.join(ext.CUDA_HOME, \"bin\", \"nvcc\")\n"
                "out = subprocess.check_output([ext.CUDA_HOME + \"/bin/nvcc\", \"-V\"])\n", line=5,
                message=PATH.format(what="path")),
        Invalid("from torch.utils.cpp_extension import CUDA_HOME as cuda_home\n\n"
                "ext_modules = [] if not cuda_home else [make_ext()]\nnvcc = f\"{cuda_home}/bin/nvcc\"\n", line=3),
    ]

    def check(self, ctx):
        if b"CUDA_HOME" not in ctx.data:
            return
        idx = index(ctx)
        done: set[int] = set()
        uses = []
        for node in [*idx.names, *idx.attributes]:
            if idx.inside_import(node) or NAME not in ctx.qualified_names(node):
                continue
            parent = idx.parent(node)
            if isinstance(node, cst.Name) and isinstance(parent, cst.Attribute) and parent.attr is node:
                continue
            if isinstance(parent, (cst.AssignTarget,)):
                continue
            where, what = _use(idx, node)
            if where is not None:
                uses.append((node, where, what))
        # a test whose code around already handles ROCm (`elif ROCM_HOME is not None:`) is kept, and so is what only
        # it reaches (`if CUDA_HOME is not None: nvcc = CUDA_HOME + "/bin/nvcc"`): ROCm never gets there
        kept = {node for node, _, what in uses if what == "test" and handles_rocm(ctx, idx, node)}
        covered = Offsets(span for node in kept for span in [*guarded(ctx, idx, node, certain=True),
                                                              *evaluated_after(ctx, idx, node)])
        for node, where, what in uses:
            if node in kept or covered.hold(ctx.byte_span(node)[0]):
                continue
            start, end = ctx.byte_span(where)
            if start in done:
                continue
            done.add(start)
            message = TEST if what == "test" else PATH.format(what=what)
            yield self.finding(ctx, start, end, message)


def _use(idx, node: cst.CSTNode) -> tuple[cst.CSTNode | None, str]:
    """Where a use of CUDA_HOME is reported and what it is: a test of it, or a path, call or string made from it."""
    child, parent = node, idx.parent(node)
    if isinstance(parent, cst.ComparisonTarget):
        parent = idx.parent(parent)
    if isinstance(parent, cst.Comparison) and len(parent.comparisons) == 1 and \
            isinstance(parent.comparisons[0].comparator, cst.Name) and parent.comparisons[0].comparator.value == "None":
        return parent, "test"
    if isinstance(parent, cst.UnaryOperation) and isinstance(parent.operator, cst.Not):
        return parent, "test"
    if isinstance(parent, (cst.If, cst.IfExp, cst.While, cst.Assert)) and getattr(parent, "test", None) is child:
        return child, "test"
    if isinstance(parent, cst.BooleanOperation):
        return child, "test"
    if isinstance(parent, cst.BinaryOperation):
        return parent, "path"
    if isinstance(parent, cst.FormattedStringExpression):
        string = idx.parent(parent)
        return string, "path"
    if isinstance(parent, cst.Arg):
        call = idx.parent(parent)
        if isinstance(call, cst.Call):
            func = call.func
            last = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) \
                else ""
            if last in ("print", "info", "debug", "warning", "warn", "error", "str", "repr", "format", "write"):
                return None, ""  # shown to a person
            return call, "call"
    return None, ""
