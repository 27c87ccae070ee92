"""nvcc-only options in a PyTorch extension's setup.py: in the `'nvcc'` entry of `extra_compile_args` of
`CUDAExtension(...)` (however it is reached: `torch.utils.cpp_extension.CUDAExtension`, `cpp_extension.CUDAExtension`,
an imported alias), and in `extra_cuda_cflags` of `torch.utils.cpp_extension.load(...)` / `load_inline(...)`.

On ROCm, PyTorch builds a `CUDAExtension` with hipcc and hands it the `'nvcc'` list as it is (the same holds for
`extra_cuda_cflags`), so `CUDAExtension`, `load` and the `'nvcc'` key stay exactly as they are: there is no
`HIPExtension`, and no `'hipcc'` key. Only the options in those lists change, as the shared table of
`migrate/buildfiles/nvcc_options.py` says: `-lineinfo` → `-gline-tables-only`, `"-Xcompiler", "-fopenmp"` →
`"-fopenmp"`, `-rdc=true` → `-fgpu-rdc`; options clang does not need are removed with their comma
(`--expt-relaxed-constexpr`, `--expt-extended-lambda`, `"-ccbin", "g++"`, `--threads=4`).

`--use_fast_math` becomes what nvcc means by it, `-fgpu-flush-denormals-to-zero` and
`-fno-hip-fp32-correctly-rounded-divide-sqrt` (both checked with hipcc 5.2 and 6.4), not `-ffast-math`: clang's fast
math also assumes that no value is NaN or infinite, which silently breaks `isfinite`-based overflow checks in
mixed-precision code (GradScaler's among them). nvcc's fast intrinsics (`sinf` as `__sinf`) have no flag of their own
here; add `-ffast-math` by hand where the code has no such checks.

Architecture options (`-gencode=arch=compute_80,code=sm_80`, `"-gencode", "arch=..."`, `-arch=sm_80`, and those
built at run time: `f"-gencode=arch=compute_{cc},code=sm_{cc}"`, a comprehension of them, `cc_flag.append("-gencode")`
with the `cc_flag.append("arch=...")` after it) name NVIDIA GPUs and are removed, with no AMD target written in their
place: PyTorch's ROCm build adds `--offload-arch` for each target in `PYTORCH_ROCM_ARCH` (rule PY021 sets it from
`TORCH_CUDA_ARCH_LIST`), or, when it is unset, for the GPUs it sees (torch 2.13's
`torch.utils.cpp_extension._get_rocm_arch_flags`; older releases took the targets torch was built for), so a build
without a GPU (a docker build) needs `PYTORCH_ROCM_ARCH` set. A target written into the flags would make PyTorch ignore
`PYTORCH_ROCM_ARCH` altogether. An `--offload-arch` the list already has stays. Other options made at run time
(`"-ccbin={}".format(cxx)`, `f"-ccbin={cxx}"`) are removed when clang needs none of them, and reported otherwise.

Options with no AMD counterpart (`-Xptxas=-v`, `--maxrregcount=64`, `-Xcudafe ...`) are left where they are,
with a warning: hipcc's clang does not accept them, so the build stops there until they are removed by hand.

The lists are found in the syntax tree (libcst): list literals, `a + b`, `x if c else y`, the list arguments of a
helper call (`append_nvcc_threads([...])`) and, for a helper defined in the module, the lists it returns (`return
nvcc_extra_args + ["--threads", "4"]`), `dict(nvcc=...)`, and names bound only by assignments, once or once per
branch (`arch_flags = [...]` in an `if` and `arch_flags = []` in its `else`, joined later as `nvcc_flags +
arch_flags`), also grown with `flags += [...]` or `flags.extend([...])`. A list that also reaches the `'cxx'` entry
(or `extra_cflags`) is left alone: the host compiler reads it too. A string appended to such a name
(`flags.append("-lineinfo")`) is replaced when one option takes its place; an appended option clang does not need
goes with its statement (a block left empty gets `pass`), and a list joined with `+` whose elements all go goes with
its `+`; anything else is reported for a hand edit. New elements
keep the quotes of the one they replace; one string holding several options (`"-gencode arch=compute_80,code=sm_80
-lineinfo"`) is rewritten in place. Comments, docstrings and other strings are not options. Tuples, strings split at
run time (`shlex.split(...)`) and names bound other ways (loop variables, parameters) are not followed. Code that
never runs on ROCm (the `else:` of `if IS_HIP_EXTENSION:`) is left as it is (migrate/python/guards.py). A file that
is not valid Python gives no finding here (the engine reports the parse error).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst
from libcst.helpers import get_full_name_for_node

from migrate.buildfiles.nvcc_options import is_architecture_option, translate_option
from migrate.model import Edit, RuleKind, Severity
from migrate.python.index import index, quoted, string_value
from migrate.python.names import target_names
from migrate.rule import PythonRule, Invalid, Valid

EXTENSIONS = {"CUDAExtension", "HIPExtension"}  # HIPExtension: a wrong port that PY002 renames in the same pass
LOADERS = {"load", "load_inline"}


class _Module(cst.CSTVisitor):
    """One walk over the module: the calls, how every name is bound, and the names imported from cpp_extension."""

    def __init__(self) -> None:
        self.calls: list[cst.Call] = []
        self.assigned: dict[str, list[cst.BaseExpression]] = {}  # name = value
        self.grown: dict[str, list[cst.BaseExpression]] = {}  # name += value, name.extend(value)
        self.appended: dict[str, list[cst.Call]] = {}  # name.append(value)
        self.bound: set[str] = set()  # bound in any other way: for, with, import, def, tuple targets, ...
        self.aliases: dict[str, str] = {}  # local name -> its name in torch.utils.cpp_extension
        self.functions: list[cst.FunctionDef] = []
        self.returns: dict[str, list[cst.BaseExpression]] = {}  # function name -> what it returns
        self._function: list[str] = []

    def _bind(self, target: cst.CSTNode) -> None:
        self.bound.update(target_names(target))

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            if isinstance(target.target, cst.Name):
                self.assigned.setdefault(target.target.value, []).append(node.value)
            else:
                self._bind(target.target)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if isinstance(node.target, cst.Name) and node.value is not None:
            self.assigned.setdefault(node.target.value, []).append(node.value)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        if isinstance(node.target, cst.Name):
            if isinstance(node.operator, cst.AddAssign):
                self.grown.setdefault(node.target.value, []).append(node.value)
            else:
                self.bound.add(node.target.value)

    def visit_For(self, node: cst.For) -> None:
        self._bind(node.target)

    def visit_CompFor(self, node: cst.CompFor) -> None:
        self._bind(node.target)

    def visit_AsName(self, node: cst.AsName) -> None:
        self._bind(node.name)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._bind(node.target)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.bound.add(node.name.value)
        self.functions.append(node)
        self.returns.setdefault(node.name.value, [])
        self._function.append(node.name.value)

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self._function.pop()

    def visit_Return(self, node: cst.Return) -> None:
        if self._function and node.value is not None:
            self.returns[self._function[-1]].append(node.value)

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.bound.add(node.name.value)

    def visit_Param(self, node: cst.Param) -> None:
        self.bound.add(node.name.value)

    def visit_ImportAlias(self, node: cst.ImportAlias) -> None:
        if node.asname is None:
            self.bound.add(node.evaluated_name.split(".")[0])

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        module = get_full_name_for_node(node.module) if node.module is not None else None
        if module and module.split(".")[-1] == "cpp_extension" and not isinstance(node.names, cst.ImportStar):
            for alias in node.names:
                self.aliases[alias.evaluated_alias or alias.evaluated_name] = alias.evaluated_name

    def visit_Call(self, node: cst.Call) -> None:
        self.calls.append(node)
        func = node.func
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and len(node.args) == 1:
            name = func.value.value
            if func.attr.value == "extend":
                self.grown.setdefault(name, []).append(node.args[0].value)
            elif func.attr.value == "append":
                self.appended.setdefault(name, []).append(node)

    def values(self, name: str) -> list[cst.BaseExpression]:
        """The values of a name bound only by assignments (once, or once per branch: `arch_flags = [...]` in an `if`
        and `arch_flags = []` in its `else`) and otherwise only grown; [] when it is bound some other way."""
        return [] if name in self.bound else list(self.assigned.get(name, []))

    def callee(self, call: cst.Call) -> str:
        """The last name of what is called, seen through `from ...cpp_extension import X as Y`."""
        if isinstance(call.func, cst.Name):
            return self.aliases.get(call.func.value, call.func.value)
        if isinstance(call.func, cst.Attribute):
            return call.func.attr.value
        return ""


@dataclass
class _Lists:
    """List literals that reach the nvcc options or the host compiler's, and the names followed to them."""

    nvcc: dict[cst.List | cst.ListComp, None] = field(default_factory=dict)  # ordered set
    host: set[cst.List | cst.ListComp] = field(default_factory=set)
    names: dict[str, None] = field(default_factory=dict)  # followed from the nvcc options
    host_names: dict[str, None] = field(default_factory=dict)  # followed from the host compiler's


def _library(word: str) -> bool:
    # -lcublas: a library, not an nvcc option (and not this rule's)
    return word.startswith("-l") and not word.startswith("-lineinfo")


@dataclass
class _Item:
    """One element of a list: the span of its value and its words (None: not a string literal)."""

    element: cst.BaseElement
    start: int
    end: int
    words: list[str] | None
    built: str | None = None  # the literal start of a string made at run time (f-string, .format, %, +)


@dataclass
class _Action:
    first: int  # index of the first element it covers
    count: int  # elements it covers
    message: str
    title: str = ""
    new: list[str] | None = None  # None: dropped (with `title`) or only reported (without)
    severity: Severity | None = None
    edits: list[Edit] = field(default_factory=list)


class NvccFlagInTorchExtension(PythonRule):
    code = "BLD201"
    kind = RuleKind.BUILD
    example_path = "setup.py"
    examples = [
        Invalid('from torch.utils.cpp_extension import CUDAExtension\n'
                '\n'
                'ext = CUDAExtension(\n'
                '    "kern",\n'
                '    ["kern.cu"],\n'
                '    extra_compile_args={\n'
                '        "cxx": ["-O3"],\n'
                '        "nvcc": [\n'
                '            "-O3",\n'
                '            "--use_fast_math",\n'
                '            "-lineinfo",\n'
                '            "--expt-relaxed-constexpr",\n'
                '        ],\n'
                '    },\n'
                ')\n',
                fixed='from torch.utils.cpp_extension import CUDAExtension\n'
                      '\n'
                      'ext = CUDAExtension(\n'
                      '    "kern",\n'
                      '    ["kern.cu"],\n'
                      '    extra_compile_args={\n'
                      '        "cxx": ["-O3"],\n'
                      '        "nvcc": [\n'
                      '            "-O3",\n'
                      '            "-fgpu-flush-denormals-to-zero",\n'
                      '            "-fno-hip-fp32-correctly-rounded-divide-sqrt",\n'
                      '            "-gline-tables-only",\n'
                      '        ],\n'
                      '    },\n'
                      ')\n', line=10,
                message="--use_fast_math is an nvcc option: nvcc's fast math is flush-to-zero, approximate division "
                        "and square root and fast intrinsics; hipcc takes the first two as -fgpu-flush-denormals-to-zero "
                        "-fno-hip-fp32-correctly-rounded-divide-sqrt (not -ffast-math, which also assumes no NaN or "
                        "infinity and so breaks isfinite-based overflow checks such as GradScaler's)"),
        Invalid("ext = CUDAExtension('k', ['k.cu'], extra_compile_args={'nvcc': ['-O2', '-gencode', "
                "'arch=compute_80,code=sm_80', '-gencode=arch=compute_90,code=sm_90']})\n",
                fixed="ext = CUDAExtension('k', ['k.cu'], extra_compile_args={'nvcc': ['-O2']})\n",
                message="-gencode arch=compute_80,code=sm_80 names NVIDIA architectures: removed; PyTorch's ROCm build "
                        "adds the AMD targets of PYTORCH_ROCM_ARCH (else of the GPUs it sees: set it where the build "
                        "has none), which a target written here would override"),
        Invalid('import torch.utils.cpp_extension as cpp_extension\n'
                '\n'
                'common = ["-O3", "--use_fast_math"]\n'
                'nvcc_flags = common + ["-Xcompiler", "-fopenmp", "--expt-extended-lambda"]\n'
                'ext = cpp_extension.CUDAExtension("k", ["k.cu"], extra_compile_args=dict(cxx=["-fopenmp"], '
                'nvcc=nvcc_flags))\n',
                fixed='import torch.utils.cpp_extension as cpp_extension\n'
                      '\n'
                      'common = ["-O3", "-fgpu-flush-denormals-to-zero", "-fno-hip-fp32-correctly-rounded-divide-sqrt"]\n'
                      'nvcc_flags = common + ["-fopenmp"]\n'
                      'ext = cpp_extension.CUDAExtension("k", ["k.cu"], extra_compile_args=dict(cxx=["-fopenmp"], '
                      'nvcc=nvcc_flags))\n', line=3),
        Invalid('ext = CUDAExtension(\n'
                '    name="k",\n'
                '    sources=["k.cu"],\n'
                '    extra_compile_args={"nvcc": [\n'
                '        "-O3",\n'
                '        # one architecture per GPU generation\n'
                '        "-gencode=arch=compute_80,code=sm_80",  # A100\n'
                '        "-gencode=arch=compute_90,code=sm_90",  # H100\n'
                '        "-std=c++17"\n'
                '    ]},\n'
                ')\n',
                fixed='ext = CUDAExtension(\n'
                      '    name="k",\n'
                      '    sources=["k.cu"],\n'
                      '    extra_compile_args={"nvcc": [\n'
                      '        "-O3",\n'
                      '        # one architecture per GPU generation\n'
                      '        "-std=c++17"\n'
                      '    ]},\n'
                      ')\n', line=7),
        Invalid('from setuptools import setup\n'
                'from torch.utils.cpp_extension import CUDAExtension\n'
                'args = {"cxx": ["-O3"], "nvcc": ["-O3", "-Xptxas=-v"]}\n'
                'setup(ext_modules=[CUDAExtension("k", ["k.cu"], extra_compile_args=args)])\n', line=3,
                message="-Xptxas=-v is an nvcc option with no AMD counterpart: ptxas is NVIDIA's assembler: AMD's "
                        "code generator has no such options; hipcc's clang rejects it: remove it by hand"),
        Invalid('from torch.utils.cpp_extension import load_inline\n'
                '\n'
                'mod = load_inline("k", cpp_sources=[cpp], cuda_sources=[cuda],\n'
                '                  extra_cuda_cflags=["-arch=sm_80", "--use_fast_math", "-ccbin", "g++"])\n',
                fixed='from torch.utils.cpp_extension import load_inline\n'
                      '\n'
                      'mod = load_inline("k", cpp_sources=[cpp], cuda_sources=[cuda],\n'
                      '                  extra_cuda_cflags=["-fgpu-flush-denormals-to-zero", '
                      '"-fno-hip-fp32-correctly-rounded-divide-sqrt"])\n', line=4),
        Invalid('import torch.utils.cpp_extension\n'
                '\n'
                'mod = torch.utils.cpp_extension.load(name="k", sources=["k.cu"],\n'
                '                                     extra_cuda_cflags=["-O3", "-gencode arch=compute_80,code=sm_80 '
                '-lineinfo"])\n',
                fixed='import torch.utils.cpp_extension\n'
                      '\n'
                      'mod = torch.utils.cpp_extension.load(name="k", sources=["k.cu"],\n'
                      '                                     extra_cuda_cflags=["-O3", "-gline-tables-only"])\n',
                options=(("offload_arch", ("gfx942",)),)),
        # flags assembled in branches and joined later; options made at run time
        Invalid('import os\n'
                'from torch.utils.cpp_extension import CUDAExtension\n'
                '\n'
                'if os.environ.get("FAST_BUILD"):\n'
                '    arch_flags = ["-gencode=arch=compute_80,code=sm_80"]\n'
                'else:\n'
                '    arch_flags = [\n'
                '        "-gencode=arch=compute_80,code=sm_80",\n'
                '        "-gencode=arch=compute_90,code=sm_90",\n'
                '    ]\n'
                'cc_flags = [f"-gencode=arch=compute_{cc},code=sm_{cc}" for cc in ("80", "90")]\n'
                'nvcc_flags = ["-O3", "-ccbin={}".format(os.environ.get("CXX", "g++")), "-lineinfo"]\n'
                'ext = CUDAExtension("k", ["k.cu"], extra_compile_args={"cxx": ["-O3"],\n'
                '                    "nvcc": nvcc_flags + arch_flags + cc_flags + ["-gencode", f"arch=compute_{sm},code=sm_{sm}"]})\n',
                fixed='import os\n'
                      'from torch.utils.cpp_extension import CUDAExtension\n'
                      '\n'
                      'if os.environ.get("FAST_BUILD"):\n'
                      '    arch_flags = []\n'
                      'else:\n'
                      '    arch_flags = [\n'
                      '    ]\n'
                      'cc_flags = []\n'
                      'nvcc_flags = ["-O3", "-gline-tables-only"]\n'
                      'ext = CUDAExtension("k", ["k.cu"], extra_compile_args={"cxx": ["-O3"],\n'
                      '                    "nvcc": nvcc_flags + arch_flags + cc_flags})\n', line=5),
        # flash-attention's way: "-gencode" and its value appended one by one, some under a version test
        Invalid('from setuptools import setup\n'
                'from torch.utils.cpp_extension import CUDAExtension\n'
                '\n'
                'cc_flag = []\n'
                'cc_flag.append("-gencode")\n'
                'cc_flag.append("arch=compute_80,code=sm_80")\n'
                'if bare_metal_version >= Version("11.8"):\n'
                '    cc_flag.append("-gencode")\n'
                '    cc_flag.append("arch=compute_90,code=sm_90")\n'
                'for arch in extra_archs:\n'
                '    cc_flag.append(f"-gencode=arch=compute_{arch},code=sm_{arch}")\n'
                'cc_flag.append("--threads=4")\n'
                'setup(ext_modules=[CUDAExtension("k", ["k.cu"], extra_compile_args={\n'
                '    "cxx": ["-O3"], "nvcc": ["-O3", "-gencode=arch=compute_80,code=sm_80"] + cc_flag})])\n',
                fixed='from setuptools import setup\n'
                      'from torch.utils.cpp_extension import CUDAExtension\n'
                      '\n'
                      'cc_flag = []\n'
                      'if bare_metal_version >= Version("11.8"):\n'
                      '    pass\n'
                      'for arch in extra_archs:\n'
                      '    pass\n'
                      'setup(ext_modules=[CUDAExtension("k", ["k.cu"], extra_compile_args={\n'
                      '    "cxx": ["-O3"], "nvcc": ["-O3"] + cc_flag})])\n', line=5),
        # a helper of the module that adds its own options to the list it is given
        Invalid('from torch.utils.cpp_extension import CUDAExtension\n'
                '\n'
                '\n'
                'def append_nvcc_threads(nvcc_extra_args):\n'
                '    return nvcc_extra_args + ["--threads", "4"]\n'
                '\n'
                '\n'
                'ext = CUDAExtension("k", ["k.cu"], extra_compile_args={"nvcc": append_nvcc_threads(["-O3"])})\n',
                fixed='from torch.utils.cpp_extension import CUDAExtension\n'
                      '\n'
                      '\n'
                      'def append_nvcc_threads(nvcc_extra_args):\n'
                      '    return nvcc_extra_args\n'
                      '\n'
                      '\n'
                      'ext = CUDAExtension("k", ["k.cu"], extra_compile_args={"nvcc": append_nvcc_threads(["-O3"])})\n',
                line=5),
        # the NVIDIA side of a ROCm test never runs on ROCm: left as it is
        Valid('from torch.utils.cpp_extension import IS_HIP_EXTENSION, CUDAExtension\n'
              '\n'
              'if IS_HIP_EXTENSION:\n'
              '    nvcc = ["-O3", "-fgpu-flush-denormals-to-zero"]\n'
              'else:\n'
              '    nvcc = ["-O3", "-gencode=arch=compute_90,code=sm_90", "--use_fast_math"]\n'
              'ext = CUDAExtension("k", ["k.cu"], extra_compile_args={"nvcc": nvcc})\n'),
        Valid('from torch.utils.cpp_extension import CUDAExtension\n'
              'ext = CUDAExtension("k", ["k.cu"], extra_compile_args={"cxx": ["-O3"], "nvcc": ["-O3", "-std=c++17", '
              '"-DNDEBUG", "--offload-arch=gfx90a", "-ffast-math"]})\n'),
        Valid('ext = CUDAExtension("k", ["k.cu"], extra_compile_args={"cxx": ["-gencode=arch=compute_80,code=sm_80", '
              '"-lineinfo"], "nvcc": ["-O3"]})\n'),  # not the nvcc entry
        Valid('"""Built with nvcc --use_fast_math -gencode=arch=compute_80,code=sm_80."""\n'
              '# extra_compile_args={"nvcc": ["-lineinfo"]}\n'
              'ext = CUDAExtension("k", ["k.cu"], extra_compile_args={"nvcc": ["-O3"]})\n'
              'print("--use_fast_math")\n'),
        Valid('from setuptools import Extension\n'
              'ext = Extension("k", ["k.c"], extra_compile_args=["-lineinfo"])\n'
              'state = torch.load("w.pt", map_location="cpu")\n'),
        Valid('ext = CUDAExtension("k", ["k.cu"], extra_compile_args={"nvcc": ["--use_fast_math"]\n'),  # no Python
    ]

    def check(self, ctx):
        # cheap test first: a file that names neither an extension class nor cpp_extension has no such call
        if not any(word in ctx.data for word in (b"Extension", b"cpp_extension")) or ctx.wrapper is None:
            return
        module = _Module()
        ctx.wrapper.visit(module)
        lists = _Lists()
        for call in module.calls:
            name = module.callee(call)
            for arg in call.args:
                keyword = arg.keyword.value if arg.keyword is not None else None
                if name in EXTENSIONS and keyword == "extra_compile_args":
                    entries = self._dict_entries(arg.value, module, set())
                    if entries is None:  # one list for both compilers
                        lists.host.update(self._lists(arg.value, module, set(), lists.host_names))
                        continue
                    for key, value in entries:
                        if key == "nvcc":
                            lists.nvcc.update(dict.fromkeys(self._lists(value, module, set(), lists.names)))
                        else:
                            lists.host.update(self._lists(value, module, set(), lists.host_names))
                elif name in LOADERS and keyword == "extra_cuda_cflags":
                    lists.nvcc.update(dict.fromkeys(self._lists(arg.value, module, set(), lists.names)))
                elif name in LOADERS and keyword in ("extra_cflags", "extra_ldflags"):
                    lists.host.update(self._lists(arg.value, module, set(), lists.host_names))
        found = []
        for node in lists.nvcc:
            if node in lists.host:
                continue
            if isinstance(node, cst.ListComp):
                found.extend(self._check_comprehension(ctx, node))
            else:
                found.extend(self._check_list(ctx, node))
        appended = [call for name in lists.names if name not in lists.host_names
                    for call in module.appended.get(name, [])]
        found.extend(self._check_appended(ctx, appended))
        yield from sorted(found, key=lambda f: f.span.start)

    # -- finding the lists ---------------------------------------------------------------------------------

    def _dict_entries(self, expr, module: _Module, seen: set[str]) -> list[tuple[str, cst.BaseExpression]] | None:
        """(key, value) of each entry with a string key when `expr` is a dict, else None."""
        if isinstance(expr, cst.Dict):
            entries = []
            for element in expr.elements:
                if isinstance(element, cst.DictElement):
                    key = string_value(element.key)
                    if key is not None:
                        entries.append((key, element.value))
                else:
                    entries.extend(self._dict_entries(element.value, module, seen) or [])
            return entries
        if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) and expr.func.value == "dict":
            entries = []
            for arg in expr.args:
                if arg.keyword is not None:
                    entries.append((arg.keyword.value, arg.value))
                else:
                    entries.extend(self._dict_entries(arg.value, module, seen) or [])
            return entries
        if isinstance(expr, cst.Name) and expr.value not in seen:
            found = [self._dict_entries(value, module, seen | {expr.value}) for value in module.values(expr.value)]
            if found and all(entries is not None for entries in found):
                return [entry for entries in found for entry in entries]
        return None

    def _lists(self, expr, module: _Module, seen: set[str], names: dict[str, None]) -> list[cst.List | cst.ListComp]:
        """The list literals (and comprehensions) whose elements end up in the option list `expr` evaluates to."""
        if isinstance(expr, cst.ListComp):  # [f"-gencode=arch=compute_{a},code=sm_{a}" for a in archs]
            return [expr]
        if isinstance(expr, cst.List):
            out = [expr]
            for element in expr.elements:
                if isinstance(element, cst.StarredElement):
                    out += self._lists(element.value, module, seen, names)
            return out
        if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Add):
            return self._lists(expr.left, module, seen, names) + self._lists(expr.right, module, seen, names)
        if isinstance(expr, cst.IfExp):
            return self._lists(expr.body, module, seen, names) + self._lists(expr.orelse, module, seen, names)
        if isinstance(expr, cst.Call):  # list(flags), append_nvcc_threads([...])
            out = [node for arg in expr.args if arg.keyword is None and not arg.star
                   for node in self._lists(arg.value, module, seen, names)]
            helper = expr.func.value if isinstance(expr.func, cst.Name) else ""
            if helper in module.returns and "()" + helper not in seen:
                # a helper of this module that adds its own options: `return nvcc_extra_args + ["--threads", "4"]`
                # (its parameters are not followed: they are the arguments above)
                for value in module.returns[helper]:
                    out += self._lists(value, module, seen | {"()" + helper}, {})
            return out
        if isinstance(expr, cst.Name) and expr.value not in seen:
            values = module.values(expr.value)
            if not values:
                return []
            names[expr.value] = None
            seen = seen | {expr.value}
            out = [node for value in values for node in self._lists(value, module, seen, names)]
            for grown in module.grown.get(expr.value, []):
                out += self._lists(grown, module, seen, names)
            return out
        return []

    # -- translating one list ------------------------------------------------------------------------------

    def _check_list(self, ctx, node: cst.List):
        items = []
        for element in node.elements:
            start, end = ctx.byte_span(element.value)
            value = string_value(element.value) if isinstance(element, cst.Element) else None
            built = built_head(element.value) if isinstance(element, cst.Element) and value is None else None
            items.append(_Item(element, start, end, value.split() if value is not None else None, built))
        actions: list[_Action] = []
        i = 0
        while i < len(items):
            if items[i].built is not None:
                action = self._built(ctx, items, i)
                actions += [action] if action else []
                i += 1
            elif not items[i].words:
                i += 1
            elif len(items[i].words) > 1:
                action, lost = self._several(items[i], i)
                actions += lost + ([action] if action else [])
                i += 1
            else:
                action = self._one(items, i)
                if action is None:
                    i += 1
                else:
                    actions.append(action)
                    i += action.count
        if not self._drop_operand(ctx, node, items, actions):
            self._edit(ctx, node, items, actions)
        for action in actions:
            start, end = items[action.first].start, items[action.first + action.count - 1].end
            yield self.finding(ctx, start, end, action.message, edits=action.edits, title=action.title,
                               severity=action.severity)

    def _one(self, items: list[_Item], i: int) -> _Action | None:
        """What the option in the one-word string items[i] (with its value in items[i+1]) becomes."""
        word = items[i].words[0]
        if _library(word):
            return None
        following = items[i + 1] if i + 1 < len(items) else None
        if is_architecture_option(word) and "=" not in word and following is not None \
                and (following.words is None or len(following.words) == 1) and not _option(following):
            # `"-gencode", "arch=compute_80,code=sm_80"`, or its value built at run time (an f-string, a name)
            written = " ".join([word, _shown(following)])
            return _Action(i, 2, f"{written} {ARCHITECTURES}", f"Remove {written}")
        words = [word]
        if following is not None and following.words and len(following.words) == 1:
            words.append(following.words[0])
        new, consumed, reason = _translate(words, 0)
        written = " ".join(words[:consumed])
        if new == words[:consumed]:
            return None
        if new is None:
            return _Action(i, consumed, f"{written} is an nvcc option with no AMD counterpart: {reason}; hipcc's "
                           "clang rejects it: remove it by hand", severity=Severity.WARNING)
        if not new and is_architecture_option(word):
            return _Action(i, consumed, f"{written} {ARCHITECTURES}", f"Remove {written}")
        if not new:
            return _Action(i, consumed, f"{written} is an nvcc option: {reason}; removed", f"Remove {written}")
        takes = "" if reason is FAST_MATH else f"; hipcc takes {' '.join(new)}"
        return _Action(i, consumed, f"{written} is an nvcc option: {reason}{takes}", f"Use {' '.join(new)}", list(new))

    def _several(self, item: _Item, i: int):
        """One string holding several options: translated in place (as one string)."""
        words, out, changed, lost = item.words, [], [], []
        j = 0
        while j < len(words):
            if _library(words[j]):
                out.append(words[j])
                j += 1
                continue
            new, consumed, reason = _translate(words, j)
            written = " ".join(words[j:j + consumed])
            if new is None:
                lost.append(_Action(i, 1, f"{written} is an nvcc option with no AMD counterpart: {reason}; hipcc's "
                                    "clang rejects it: remove it by hand", severity=Severity.WARNING))
                new = words[j:j + consumed]
            elif not new and is_architecture_option(words[j]):
                changed.append(f"{written} (NVIDIA architectures: PYTORCH_ROCM_ARCH gives the AMD targets)")
            elif new != words[j:j + consumed]:
                changed.append(f"{written} ({reason})")
            out += new
            j += consumed
        if not changed:
            return None, lost
        text = " ".join(out)
        if out:
            message = f"nvcc options in {' '.join(words)!r}: {'; '.join(changed)}; hipcc takes {text!r}"
            return _Action(i, 1, message, f"Use {text!r}", [text]), lost
        message = f"nvcc options in {' '.join(words)!r}: {'; '.join(changed)}; removed"
        return _Action(i, 1, message, f"Remove {' '.join(words)!r}"), lost

    def _built(self, ctx, items: list[_Item], i: int) -> _Action | None:
        """An option made at run time (`f"-gencode=arch=compute_{cc},code=sm_{cc}"`, `"-ccbin={}".format(cxx)`,
        `"-arch=sm_%d" % cc`): removed when clang needs none of it, else reported by what its literal start says."""
        words = items[i].built.split()
        if not words:
            return None
        option = words[0].split("=", 1)[0]
        shown = _shown(items[i])
        if is_architecture_option(option):
            return _Action(i, 1, f"{shown} {ARCHITECTURES}", f"Remove {shown}")
        dummy = [option + "=x"] if "=" in words[0] else [option, "x"]  # the value does not matter here
        new, consumed, reason = _translate(dummy, 0)
        if new == dummy[:consumed]:
            return None
        if new == []:
            return _Action(i, 1, f"{shown} is an nvcc option built at run time: {reason}; removed", f"Remove {shown}")
        if new is None:
            return _Action(i, 1, f"{shown} is an nvcc option with no AMD counterpart: {reason}; hipcc's clang rejects "
                           "it: remove it by hand", severity=Severity.WARNING)
        return _Action(i, 1, f"{shown} is an nvcc option built at run time: {reason}; rewrite it by hand for hipcc",
                       severity=Severity.WARNING)

    # -- edits ---------------------------------------------------------------------------------------------

    def _edit(self, ctx, node: cst.List, items: list[_Item], actions: list[_Action]) -> None:
        """Fill in each action's edits: replacements in place, removals with their commas and, for an element
        on a line of its own, with its line (a comment on that line goes with it; comment lines stay)."""
        owner: dict[int, _Action] = {}
        for action in actions:
            if action.new:
                first, last = items[action.first], items[action.first + action.count - 1]
                separator = ", "
                line = self._line_start(ctx.data, first.start)
                if line is not None:
                    separator = "," + ctx.newline + ctx.data[line:first.start].decode()
                text = separator.join(quoted(first.element.value, word) for word in action.new)
                action.edits.append(Edit(first.start, last.end, text))
            elif action.title:  # removed
                for k in range(action.first, action.first + action.count):
                    owner[k] = action
        run: list[int] = []
        for k in sorted(owner) + [None]:
            if run and (k is None or k != run[-1] + 1):
                for start, end in self._removal(ctx, node, items, run[0], run[-1]):
                    # one range per run, split where each removed element starts, so that each finding owns
                    # the part of its own element
                    cuts = [start] + [items[m].start for m in run[1:] if start < items[m].start < end] + [end]
                    for a, b in zip(cuts, cuts[1:]):
                        m = max([x for x in run if items[x].start <= a] or [run[0]])
                        owner[m].edits.append(Edit(a, b, ""))
                run = []
            if k is not None:
                run.append(k)

    @staticmethod
    def _drop_operand(ctx, node: cst.List, items: list[_Item], actions: list[_Action]) -> bool:
        """A list all of whose elements go, joined with `+` (`flags + ["-gencode", "arch=..."]`): it goes with its
        `+` instead of leaving `+ []`; each action removes the part from its element on."""
        owner = {k: a for a in actions if a.title and not a.new for k in range(a.first, a.first + a.count)}
        parent = index(ctx).parent(node)
        if not items or len(owner) != len(items) or not isinstance(parent, cst.BinaryOperation) \
                or not isinstance(parent.operator, cst.Add):
            return False
        if parent.right is node:
            start, end = ctx.byte_span(parent.left)[1], ctx.byte_span(node)[1]
        else:
            start, end = ctx.byte_span(node)[0], ctx.byte_span(parent.right)[0]
        cuts = [start] + [item.start for item in items[1:]] + [end]
        for k, (a, b) in enumerate(zip(cuts, cuts[1:])):
            owner[k].edits.append(Edit(a, b, ""))
        return True

    @staticmethod
    def _line_start(data: bytes, pos: int) -> int | None:
        """Where the line of `pos` starts, when only blanks precede `pos` on it; else None."""
        start = data.rfind(b"\n", 0, pos) + 1
        return start if not data[start:pos].strip(b" \t") else None

    def _removal(self, ctx, node: cst.List, items: list[_Item], a: int, b: int) -> list[tuple[int, int]]:
        """The byte ranges that remove elements a..b (all removed, and the ones around them kept)."""
        data = ctx.data
        first, last = items[a], items[b]
        line = self._line_start(data, first.start)
        after = b + 1 < len(items)
        stop = items[b + 1].start if after else ctx.byte_span(node.rbracket)[1] - 1  # its span has the blanks before ]
        gap = data[last.end:stop]
        newline = gap.find(b"\n")
        if after:
            if newline < 0:
                return [(first.start, stop)]
            if line is not None:
                return [(line, last.end + newline + 1)]
            end = last.end + newline - (1 if gap[:newline].endswith(b"\r") else 0)
            return [(self._blanks_before(data, first.start), end)]
        comma = last.element.comma
        trailing = isinstance(comma, cst.Comma)
        if a == 0:
            if line is not None and newline >= 0:
                return [(line, last.end + newline + 1)]
            return [(first.start, ctx.byte_span(comma)[1] if trailing else last.end)]
        previous = items[a - 1]
        previous_comma = [ctx.byte_span(previous.element.comma)] if not trailing else []
        if line is not None and newline >= 0:
            return previous_comma + [(line, last.end + newline + 1)]
        if b"#" not in data[previous.end:first.start]:
            return [(previous.end, last.end)]
        # a comment after the element before: keep it and its line break
        start = line if line is not None else self._blanks_before(data, first.start)
        return previous_comma + [(start, ctx.byte_span(comma)[1] if trailing else last.end)]

    @staticmethod
    def _blanks_before(data: bytes, pos: int) -> int:
        while pos > 0 and data[pos - 1:pos] in (b" ", b"\t"):
            pos -= 1
        return pos

    def _check_comprehension(self, ctx, node: cst.ListComp):
        """`[f"-gencode=arch=compute_{a},code=sm_{a}" for a in archs]`: architecture options made one per element;
        the comprehension is removed with the `+` that joins it, or becomes `[]`."""
        head = built_head(node.elt)
        words = head.split() if head else []
        if not words or not is_architecture_option(words[0].split("=", 1)[0]):
            return
        start, end = ctx.byte_span(node)
        shown = ctx.text(start, end)
        parent = index(ctx).parent(node)
        if isinstance(parent, cst.BinaryOperation) and isinstance(parent.operator, cst.Add):
            if parent.right is node:
                edit = Edit(ctx.byte_span(parent.left)[1], end, "")
            else:
                edit = Edit(start, ctx.byte_span(parent.right)[0], "")
        else:
            edit = Edit(start, end, "[]")
        yield self.finding(ctx, start, end, f"{shown} {ARCHITECTURES}", edits=[edit], title="Remove the NVIDIA "
                           "architecture options")

    # -- strings appended one by one -----------------------------------------------------------------------

    def _check_appended(self, ctx, calls: list[cst.Call]):
        """`flags.append("--use_fast_math")`: a one-for-one option is replaced; an architecture option (with the
        `flags.append("arch=...")` after `flags.append("-gencode")`) and an option clang does not need are removed with
        their statements; anything else is reported."""
        idx = index(ctx)
        removed: list[tuple[cst.Call, str, str]] = []  # (call, what, message)
        pending = None  # a "-gencode" appended alone: its value is the next append to the same list
        for call in sorted(calls, key=lambda c: ctx.byte_span(c)[0]):
            node = call.args[0].value
            value = string_value(node)
            head = value if value is not None else built_head(node)
            words = head.split() if head else []
            owner = call.func.value.value
            if pending is not None and pending[1] == owner:
                removed.append((call, _shown_node(ctx, node), pending[2]))
                pending = None
                continue
            pending = None
            if not words or any(_library(w) for w in words):
                continue
            start, end = ctx.byte_span(node)
            shown = _shown_node(ctx, node)
            option = words[0].split("=", 1)[0] if value is None else words[0]
            if is_architecture_option(option):
                message = f"{shown} {ARCHITECTURES}"
                removed.append((call, shown, message))
                if "=" not in words[0] and len(words) == 1:
                    pending = (call, owner, message)
                continue
            if value is None:
                new, _, reason = _translate([option + "=x"] if "=" in words[0] else [option, "x"], 0)
                if new == []:
                    removed.append((call, shown, f"{shown} is an nvcc option built at run time: {reason}; removed"))
                elif new is None:
                    yield self.finding(ctx, start, end, f"{shown} is an nvcc option with no AMD counterpart: {reason}; "
                                       "hipcc's clang rejects it: remove it by hand", severity=Severity.WARNING)
                continue
            new, consumed, reason = _translate(words, 0)
            if new == words[:consumed]:
                continue
            if new is None:
                yield self.finding(ctx, start, end, f"{value} is an nvcc option with no AMD counterpart: {reason}; "
                                   "hipcc's clang rejects it: remove it by hand", severity=Severity.WARNING)
            elif not new and consumed == len(words):
                removed.append((call, shown, f"{value} is an nvcc option: {reason}; removed"))
            elif len(new) == 1 and consumed == len(words):
                yield self.finding(ctx, start, end, f"{value} is an nvcc option: {reason}; hipcc takes {new[0]}",
                                   edits=[Edit(start, end, quoted(node, new[0]))], title=f"Use {new[0]}")
            else:
                what = f"hipcc takes {' '.join(new)}" if new else "clang does not need it"
                yield self.finding(ctx, start, end, f"{value} is an nvcc option appended to nvcc's options: {reason}; "
                                   f"{what}: edit this call by hand", severity=Severity.WARNING)
        edits = statement_removals(ctx, idx, [call for call, _, _ in removed])
        for call, shown, message in removed:
            start, end = ctx.byte_span(call)
            mine = edits.get(call)
            if mine is None:  # not a statement of its own (`x = flags.append(...)`): left for a hand edit
                yield self.finding(ctx, start, end, f"{message}: remove this call by hand", severity=Severity.WARNING)
            else:
                yield self.finding(ctx, start, end, message, edits=mine, title=f"Remove the append of {shown}")


ARCHITECTURES = ("names NVIDIA architectures: removed; PyTorch's ROCm build adds the AMD targets of PYTORCH_ROCM_ARCH "
                 "(else of the GPUs it sees: set it where the build has none), which a target written here would "
                 "override")
FAST_MATH = ("nvcc's fast math is flush-to-zero, approximate division and square root and fast intrinsics; hipcc "
             "takes the first two as -fgpu-flush-denormals-to-zero -fno-hip-fp32-correctly-rounded-divide-sqrt (not "
             "-ffast-math, which also assumes no NaN or infinity and so breaks isfinite-based overflow checks such as "
             "GradScaler's)")
def _translate(words: list[str], i: int):
    """`translate_option`, with `--use_fast_math` as the clang flags of what nvcc's means (not -ffast-math)."""
    if words[i].lstrip("-") in ("use_fast_math", "use-fast-math"):
        return ["-fgpu-flush-denormals-to-zero", "-fno-hip-fp32-correctly-rounded-divide-sqrt"], 1, FAST_MATH
    return translate_option(words, i)


def _option(item: _Item) -> bool:
    """Whether an element is an option of its own (starts with a dash)."""
    head = " ".join(item.words) if item.words else (item.built or "")
    return head.startswith("-")


def _shown(item: _Item) -> str:
    return " ".join(item.words) if item.words else (item.built or "") + "..."


def _shown_node(ctx, node: cst.CSTNode) -> str:
    value = string_value(node)
    return value if value is not None else ctx.text(*ctx.byte_span(node))


def built_head(node: cst.BaseExpression) -> str | None:
    """The literal start of a string made at run time: an f-string's text before its first `{}`, the template of
    `"...".format(...)` or `"..." % x` up to its first placeholder, the left string of `"..." + x`; None for anything
    else (a plain literal included)."""
    if isinstance(node, cst.FormattedString):
        first = node.parts[0] if node.parts else None
        return first.value if isinstance(first, cst.FormattedStringText) else ""
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "format":
        template = string_value(node.func.value)
        return template.split("{", 1)[0] if template is not None else None
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, (cst.Modulo, cst.Add)):
        left = string_value(node.left)
        if left is None:
            return built_head(node.left)
        return left.split("%", 1)[0] if isinstance(node.operator, cst.Modulo) else left
    return None


def statement_removals(ctx, idx, calls: list[cst.Call]) -> dict[cst.Call, list[Edit]]:
    """Edits that remove each call's statement (`flags.append(...)` on a line of its own): its line goes; where every
    statement of a block goes, the first becomes `pass` so the block stays valid Python."""
    lines: dict[cst.Call, cst.SimpleStatementLine] = {}
    for call in calls:
        expr = idx.parent(call)
        line = idx.parent(expr) if isinstance(expr, cst.Expr) else None
        if isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1:
            lines[call] = line
    by_block: dict[int, list[cst.Call]] = {}
    blocks: dict[int, cst.CSTNode] = {}
    for call, line in lines.items():
        block = idx.parent(line)
        blocks[id(block)] = block
        by_block.setdefault(id(block), []).append(call)
    edits: dict[cst.Call, list[Edit]] = {}
    for key, mine in by_block.items():
        block = blocks[key]
        body = list(getattr(block, "body", []))
        gone = {id(lines[c]) for c in mine}
        empty = isinstance(block, cst.IndentedBlock) and all(id(statement) in gone for statement in body)
        for n, call in enumerate(sorted(mine, key=lambda c: ctx.byte_span(c)[0])):
            start, end = ctx.byte_span(lines[call])
            line_start = ctx.data.rfind(b"\n", 0, start) + 1
            if empty and n == 0:
                edits[call] = [Edit(start, ctx.byte_span(lines[call].body[0])[1], "pass")]
                continue
            newline = ctx.data.find(b"\n", end)
            edits[call] = [Edit(line_start, len(ctx.data) if newline < 0 else newline + 1, "")]
    return edits
