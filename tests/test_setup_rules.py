"""setup.py rules on whole files through the pipeline (`api.analyse`): a PyTorch extension's setup.py is
migrated to its exact expected text, with the expected findings, still parses, and a second pass changes
nothing. Also: setup.py files that are not plain UTF-8 (a byte-order mark, a coding cookie, bytes that
are not Python's encoding at all)."""
from pathlib import Path

import libcst as cst

from migrate import api
from migrate.model import FileStatus, Severity
from migrate.options import Options
from tests.helpers import write_tree

OPTIONS = Options(hip_version="6.2", offload_arch=("gfx90a", "gfx940"))

SETUP = '''\
"""Build script of the fused_ops PyTorch extension (built with nvcc -O3 --use_fast_math)."""
import os

from setuptools import find_packages, setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

here = os.path.dirname(os.path.abspath(__file__))

# nvcc flags shared by every kernel
nvcc_flags = [
    "-O3",
    "-std=c++17",
    "-gencode=arch=compute_80,code=sm_80",
    "--use_fast_math",
    "-lineinfo",
    "--expt-relaxed-constexpr",  # constexpr std:: calls in device code
    "-Xptxas=-v",
    "-U__CUDA_NO_HALF_OPERATORS__",
]

setup(
    name="fused_ops",
    version="0.1.0",
    packages=find_packages(),
    ext_modules=[
        CUDAExtension(
            name="fused_ops._C",
            sources=["csrc/bindings.cpp", "csrc/fused_ops_kernel.cu"],
            include_dirs=[os.path.join(here, "csrc")],
            extra_compile_args={
                "cxx": ["-O3", "-std=c++17", "-fopenmp"],
                "nvcc": nvcc_flags + ["-Xcompiler", "-fopenmp"],
            },
        )
    ],
    cmdclass={"build_ext": BuildExtension},
)
'''

SETUP_MIGRATED = '''\
"""Build script of the fused_ops PyTorch extension (built with nvcc -O3 --use_fast_math)."""
import os

from setuptools import find_packages, setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

here = os.path.dirname(os.path.abspath(__file__))

# nvcc flags shared by every kernel
nvcc_flags = [
    "-O3",
    "-std=c++17",
    "-fgpu-flush-denormals-to-zero",
    "-fno-hip-fp32-correctly-rounded-divide-sqrt",
    "-gline-tables-only",
    "-Xptxas=-v",
    "-U__CUDA_NO_HALF_OPERATORS__",
]

setup(
    name="fused_ops",
    version="0.1.0",
    packages=find_packages(),
    ext_modules=[
        CUDAExtension(
            name="fused_ops._C",
            sources=["csrc/bindings.cpp", "csrc/fused_ops_kernel.cu"],
            include_dirs=[os.path.join(here, "csrc")],
            extra_compile_args={
                "cxx": ["-O3", "-std=c++17", "-fopenmp"],
                "nvcc": nvcc_flags + ["-fopenmp"],
            },
        )
    ],
    cmdclass={"build_ext": BuildExtension},
)
'''


def migrate(tmp_path: Path, data: bytes):
    """The FileResult of setup.py, alone in a project folder."""
    write_tree(tmp_path, {"setup.py": data})
    _, result = api.analyse(tmp_path, OPTIONS)
    (setup_py,) = [f for f in result.files if f.path == "setup.py"]
    return setup_py


def test_pytorch_extension_setup_py(tmp_path):
    result = migrate(tmp_path / "src", SETUP.encode())
    assert result.status is FileStatus.MIGRATED
    assert result.new.decode() == SETUP_MIGRATED
    assert [(f.code, f.span.line, f.severity) for f in result.findings] == [
        ("BLD201", 13, Severity.INFO),  # -gencode=arch=compute_80,code=sm_80
        ("BLD201", 14, Severity.INFO),  # --use_fast_math
        ("BLD201", 15, Severity.INFO),  # -lineinfo
        ("BLD201", 16, Severity.INFO),  # --expt-relaxed-constexpr
        ("BLD201", 17, Severity.WARNING),  # -Xptxas=-v: kept, no counterpart
        ("BLD201", 32, Severity.INFO),  # -Xcompiler -fopenmp
    ]
    fixed = [f.matched for f in result.findings if f.fix is not None]
    assert fixed == ['"-gencode=arch=compute_80,code=sm_80"', '"--use_fast_math"', '"-lineinfo"',
                     '"--expt-relaxed-constexpr"', '"-Xcompiler", "-fopenmp"']
    (warning,) = [f for f in result.findings if f.fix is None]
    assert warning.message == ("-Xptxas=-v is an nvcc option with no AMD counterpart: ptxas is NVIDIA's assembler: "
                               "AMD's code generator has no such options; hipcc's clang rejects it: remove it by hand")
    cst.parse_module(result.new)  # still Python

    again = migrate(tmp_path / "again", result.new)
    assert again.status is FileStatus.UNCHANGED
    assert [(f.code, f.span.line, f.fix) for f in again.findings] == [("BLD201", 16, None)]  # the kept -Xptxas=-v


def test_no_amd_target_is_written_into_the_extension_flags(tmp_path):
    """PyTorch's ROCm build adds the targets of PYTORCH_ROCM_ARCH unless the flags name one: whatever --offload-arch
    says, the setup.py gets none (issue 17, defect 4)."""
    write_tree(tmp_path, {"setup.py": SETUP})
    _, result = api.analyse(tmp_path, Options(hip_version="6.2", offload_arch=("gfx942",)))
    (setup_py,) = result.files
    assert setup_py.new.decode() == SETUP_MIGRATED
    assert "offload-arch" not in setup_py.new.decode()


def test_byte_order_mark_and_crlf(tmp_path):
    """libcst's offsets leave out the byte-order mark; the edits must land on the file's own bytes."""
    data = b"\xef\xbb\xbf" + SETUP.replace("\n", "\r\n").encode()
    result = migrate(tmp_path, data)
    assert result.new == b"\xef\xbb\xbf" + SETUP_MIGRATED.replace("\n", "\r\n").encode()


def test_latin1_coding_cookie(tmp_path):
    """libcst counts UTF-8 bytes of the decoded text; a latin-1 file's é is one byte."""
    head = "# -*- coding: latin-1 -*-\n# Auteur : Andr\u00e9\n"
    result = migrate(tmp_path, (head + SETUP).encode("latin-1"))
    assert result.new == (head + SETUP_MIGRATED).encode("latin-1")


def test_not_python_encoding_is_reported_not_fatal(tmp_path):
    """Bytes that are not UTF-8 without a coding cookie: Python itself refuses the file (SyntaxError from the
    encoding detection); the migration reports it and leaves the file as it is."""
    data = b'# Auteur : Andr\xe9\n' + SETUP.encode()
    result = migrate(tmp_path, data)
    assert result.new == data
    assert sorted(f.code for f in result.findings) == ["INP001", "INP003"]


def test_syntax_error_gives_no_rule_finding(tmp_path):
    data = SETUP.replace("setup(\n", "setup(((\n").encode()
    result = migrate(tmp_path, data)
    assert result.new == data
    assert [f.code for f in result.findings] == ["INP001"]
