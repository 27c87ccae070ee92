"""Builds the scale_bias extension: python setup.py build_ext --inplace"""
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

NVCC_FLAGS = [
    "-O3",
    "-fgpu-flush-denormals-to-zero",
    "-fno-hip-fp32-correctly-rounded-divide-sqrt",
    "-gline-tables-only",
]

setup(
    name="scale_bias_ext",
    ext_modules=[
        CUDAExtension(
            name="scale_bias_ext",
            sources=["csrc/binding.cpp", "csrc/scale_bias.cu"],
            extra_compile_args={"cxx": ["-O3"], "nvcc": NVCC_FLAGS},
        )
    ],
    cmdclass={"build_ext": BuildExtension},
)
