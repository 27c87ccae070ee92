"""Build script of fused_ops: fused LayerNorm, Adam and softmax cross-entropy kernels for PyTorch.

    pip install --no-build-isolation -e .

FUSED_OPS_DEBUG=1 builds without optimisation and with line information for the profilers.
"""
import os
import subprocess

from packaging.version import Version, parse
from setuptools import find_packages, setup
from torch.utils.cpp_extension import CUDA_HOME, BuildExtension, CUDAExtension


def get_cuda_bare_metal_version(cuda_dir):
    raw_output = subprocess.check_output([cuda_dir + "/bin/nvcc", "-V"], universal_newlines=True)
    output = raw_output.split()
    release_idx = output.index("release") + 1
    return raw_output, parse(output[release_idx].split(",")[0])


def append_nvcc_threads(nvcc_extra_args):
    # nvcc compiles the architectures of one unit in parallel
    return nvcc_extra_args


if CUDA_HOME is None:
    raise RuntimeError("fused_ops needs the CUDA toolkit: install it or set CUDA_HOME")

_, bare_metal_version = get_cuda_bare_metal_version(CUDA_HOME)

cc_flag = []
if bare_metal_version >= Version("11.8"):
    pass

if os.environ.get("FUSED_OPS_DEBUG", "0") == "1":
    opt_flags = ["-O0", "-g", "-gline-tables-only"]
else:
    opt_flags = ["-O3", "-fgpu-flush-denormals-to-zero", "-fno-hip-fp32-correctly-rounded-divide-sqrt"]

nvcc_flags = opt_flags + [
    "-std=c++17",
    "-U__CUDA_NO_HALF_OPERATORS__",
    "-U__CUDA_NO_HALF_CONVERSIONS__",
]
cxx_flags = ["-O3", "-std=c++17"]

ext_modules = [
    CUDAExtension(
        name="fused_ops.layernorm_cuda",
        sources=["csrc/layernorm.cpp", "csrc/layernorm_kernel.cu"],
        extra_compile_args={"cxx": cxx_flags, "nvcc": append_nvcc_threads(nvcc_flags + cc_flag)},
    ),
    CUDAExtension(
        name="fused_ops.adam_cuda",
        sources=["csrc/adam.cpp", "csrc/adam_kernel.cu"],
        extra_compile_args={"cxx": cxx_flags, "nvcc": append_nvcc_threads(nvcc_flags + cc_flag)},
    ),
    CUDAExtension(
        name="fused_ops.softmax_xent_cuda",
        sources=["csrc/softmax_xent.cpp", "csrc/softmax_xent_kernel.cu"],
        extra_compile_args={"cxx": cxx_flags, "nvcc": append_nvcc_threads(nvcc_flags + cc_flag)},
    ),
]
if bare_metal_version >= Version("11.8"):
    # the same optimizer with its state kept in FP8 (Hopper and newer)
    ext_modules.append(
        CUDAExtension(
            name="fused_ops.adam_fp8_cuda",
            sources=["csrc/adam.cpp", "csrc/adam_kernel.cu"],
            define_macros=[("FUSED_OPS_FP8_STATE", None)],
            extra_compile_args={
                "cxx": cxx_flags,
                "nvcc": append_nvcc_threads(nvcc_flags + cc_flag),
            },
        )
    )

setup(
    name="fused_ops",
    version="0.3.0",
    packages=find_packages(exclude=("tests",)),
    ext_modules=ext_modules,
    cmdclass={"build_ext": BuildExtension},
    python_requires=">=3.9",
)
