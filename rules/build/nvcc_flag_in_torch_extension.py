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

import libcst as cst

from migrate.model import RuleKind
from migrate.python.extension_flags import option_lists
from migrate.python.nvcc_lists import check_appended, check_comprehension, check_list
from migrate.rule import Invalid, PythonRule, Valid


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
        # an element whose comma stands on the next line (a fuzz find): the comma goes with it
        Invalid("ext = CUDAExtension('k', ['k.cu'], extra_compile_args={'nvcc': [\n"
                "    '-O3',\n    '-gencode=arch=compute_90,code=sm_90'  # H100\n    , '-std=c++17']})\n",
                fixed="ext = CUDAExtension('k', ['k.cu'], extra_compile_args={'nvcc': [\n"
                      "    '-O3',\n    '-std=c++17']})\n"),
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
        # an append inside another expression is left for a hand edit, and the next append is not its value (a fuzz
        # find: the "-gencode" after it was taken as that value and its own value left for a second run)
        Invalid('from torch.utils.cpp_extension import CUDAExtension\n'
                'cc_flag = []\n'
                'print(cc_flag.append("-gencode"))\n'
                'cc_flag.append("-gencode")\n'
                'cc_flag.append("arch=compute_90,code=sm_90")\n'
                'ext = CUDAExtension("k", ["k.cu"], extra_compile_args={"nvcc": ["-O3"] + cc_flag})\n',
                fixed='from torch.utils.cpp_extension import CUDAExtension\n'
                      'cc_flag = []\n'
                      'print(cc_flag.append("-gencode"))\n'
                      'ext = CUDAExtension("k", ["k.cu"], extra_compile_args={"nvcc": ["-O3"] + cc_flag})\n', line=3),
        # ... and the last element with its trailing comma on the next line, after a comment (a fuzz find)
        Invalid("ext = CUDAExtension('k', ['k.cu'], extra_compile_args={'nvcc': [\n"
                "    '-O3',\n    '--expt-relaxed-constexpr'  # for Eigen\n    ,\n]})\n",
                fixed="ext = CUDAExtension('k', ['k.cu'], extra_compile_args={'nvcc': [\n    '-O3',\n]})\n"),
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
        lists = option_lists(ctx)
        changes = []
        for node in lists.nvcc:
            if node not in lists.host:
                changes.extend(check_comprehension(ctx, node) if isinstance(node, cst.ListComp) else check_list(ctx, node))
        appended = [call for name in lists.names if name not in lists.host_names
                    for call in lists.appended.get(name, [])]
        changes.extend(check_appended(ctx, appended))
        for c in sorted(changes, key=lambda c: c.start):
            yield self.finding(ctx, c.start, c.end, c.message, edits=c.edits, title=c.title, severity=c.severity)
