from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

setup(
    name="fused_ops",
    ext_modules=[
        CUDAExtension(
            "fused_ops",
            ["csrc/ops.cpp", "csrc/ops_kernel.cu"],
            extra_compile_args={"cxx": ["-O3"], "nvcc": ["-O3", "--expt-relaxed-constexpr", "-gencode=arch=compute_90,code=sm_90"]},
        )
    ],
    cmdclass={"build_ext": BuildExtension},
)
