"""`nvcc` run from Python: `subprocess.run/call/check_call/check_output/Popen`, `os.system`, `os.popen`, with the
command as a list or a string, by name or by a path (`/usr/local/cuda/bin/nvcc`, `os.path.join(CUDA_HOME, "bin",
"nvcc")`, `CUDA_HOME + "/bin/nvcc"`, `f"{CUDA_HOME}/bin/nvcc"`), also through a name bound once or a helper's
return value (migrate/python/commands.py).

Why: there is no nvcc on a ROCm machine; HIP's compiler driver is `hipcc`. Extension builds ask nvcc for CUDA's
release (`get_cuda_bare_metal_version` in many setup.py files) and stop, or pick CUDA-only flags, when it is absent.

What happens, by case:
- `nvcc --version` / `nvcc -V` written literally, its output only shown: rewritten (safe) to `hipcc --version`,
  which prints HIP's version and the clang it drives.
- The same with its output read (`check_output`, `capture_output=True`, ...): WARNING, no fix: hipcc prints another
  layout; on ROCm, PyTorch's `torch.version.hip` or `hipconfig --version` give HIP's release, and a CUDA release
  parsed from nvcc means nothing there.
- A path built from `CUDA_HOME` or held elsewhere: the same findings, at the call, without a fix (the path is
  written where it is set; on ROCm it is `ROCM_HOME`'s `bin/hipcc`, `torch.utils.cpp_extension.ROCM_HOME`).
- Any other nvcc command (a compile): WARNING, no fix: nvcc's options do not carry over to hipcc (`-gencode`,
  `-arch=sm_80` → `--offload-arch=gfx942`; `.cu` sources need `-x hip`).
Commands held by a name bound several times, or built otherwise at run time, are not followed.
"""
from __future__ import annotations

import libcst as cst

from migrate.model import Edit, Severity
from migrate.python.commands import commands
from migrate.python.index import quoted
from migrate.rule import Invalid, PythonRule, Valid

VERSION = {"--version", "-V"}


class NvccCommand(PythonRule):
    code = "PY072"
    severity = Severity.WARNING
    example_path = "setup.py"
    examples = [
        Valid("import subprocess\nsubprocess.run(['hipcc', '--version'])\nprint('nvcc --version')\n"),
        Invalid("import subprocess\n\nsubprocess.run(['nvcc', '--version'])\n",
                fixed="import subprocess\n\nsubprocess.run(['hipcc', '--version'])\n", line=3,
                message="nvcc --version does not exist on ROCm machines: hipcc --version prints HIP's version and "
                        "the clang it drives"),
        Invalid("import os\n\nos.system('nvcc -V')\n", fixed="import os\n\nos.system('hipcc --version')\n"),
        # the CUDA release parsed from nvcc (the common get_cuda_bare_metal_version of extension builds)
        Invalid("import os\nimport subprocess\n\n\ndef get_cuda_bare_metal_version(cuda_dir):\n"
                "    raw = subprocess.check_output([cuda_dir + '/bin/nvcc', '-V'], universal_newlines=True)\n"
                "    return raw.split()\n", line=6,
                message="nvcc -V does not exist on ROCm machines, and its output is parsed here: hipcc --version "
                        "prints another layout; on ROCm, torch.version.hip or `hipconfig --version` give HIP's "
                        "release (a CUDA release means nothing there)"),
        Invalid("import os\nimport subprocess\nfrom torch.utils.cpp_extension import CUDA_HOME\n\n"
                "NVCC = os.path.join(CUDA_HOME, 'bin', 'nvcc')\nsubprocess.run([NVCC, '--version'])\n", line=6,
                message="nvcc --version (through NVCC, set at line 5) does not exist on ROCm machines: hipcc "
                        "--version prints HIP's version and the clang it drives: run it where the command is set "
                        "(ROCM_HOME's bin/hipcc)"),
        Invalid("import subprocess\n\nsubprocess.check_call(['nvcc', '-O3', '-arch=sm_80', '-c', 'k.cu'])\n", line=3,
                message="nvcc -O3 -arch=sm_80 -c k.cu compiles CUDA for NVIDIA GPUs: hipcc compiles HIP for AMD "
                        "GPUs, but nvcc's options differ (-arch=sm_80 and -gencode become --offload-arch=gfx942, "
                        ".cu sources need -x hip): rewrite this command by hand"),
    ]

    def check(self, ctx):
        for command in commands(ctx, "nvcc"):
            start, end = ctx.byte_span(command.at)
            shown = command.shown
            if not set(command.options) <= VERSION or len(command.words) != 2 or None in command.words:
                yield self.finding(ctx, start, end, f"{shown} compiles CUDA for NVIDIA GPUs: hipcc compiles HIP for "
                                   "AMD GPUs, but nvcc's options differ (-arch=sm_80 and -gencode become "
                                   "--offload-arch=gfx942, .cu sources need -x hip): rewrite this command by hand")
            elif command.parsed:
                yield self.finding(ctx, start, end, f"{shown} does not exist on ROCm machines, and its output is "
                                   "parsed here: hipcc --version prints another layout; on ROCm, torch.version.hip or "
                                   "`hipconfig --version` give HIP's release (a CUDA release means nothing there)")
            elif not command.literal:
                yield self.finding(ctx, start, end, f"{shown} does not exist on ROCm machines: hipcc --version prints "
                                   "HIP's version and the clang it drives: run it where the command is set "
                                   "(ROCM_HOME's bin/hipcc)")
            else:
                yield self.finding(ctx, start, end, f"{shown} does not exist on ROCm machines: hipcc --version prints "
                                   "HIP's version and the clang it drives", severity=Severity.INFO,
                                   edits=[_edit(ctx, command.node)], title="Run hipcc --version")


def _edit(ctx, node) -> Edit:
    """The literal command rewritten to `hipcc --version`: both words of a list, or the whole string."""
    if isinstance(node, (cst.List, cst.Tuple)):
        first, last = node.elements[0].value, node.elements[-1].value
        return Edit(ctx.byte_span(first)[0], ctx.byte_span(last)[1],
                    f"{quoted(first, 'hipcc')}, {quoted(first, '--version')}")
    return Edit(*ctx.byte_span(node), quoted(node, "hipcc --version"))
