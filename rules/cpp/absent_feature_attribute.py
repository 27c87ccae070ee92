"""A device attribute query about an NVIDIA feature that AMD GPUs lack (compressible memory, thread block clusters,
a persisting L2 carve-out), which HIP does not name: answered 0.

CUDA code asks before using such a feature: `cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_GENERIC_COMPRESSION_SUPPORTED,
dev)`, `cudaDeviceGetAttribute(&v, cudaDevAttrClusterLaunch, dev)`, and takes its other path when the answer is 0.
HIP has no such attribute (`hipDeviceGetAttribute` would not compile with the name), and the answer on an AMD GPU is
0: the query becomes `((*(&v) = 0), hipSuccess)`, which sets the value and succeeds as the call would. The device
argument is not evaluated. The attribute's name anywhere else stays CPP006's.
"""
from migrate.cpp.absent_features import ATTRIBUTES, answered
from migrate.edits import decoded
from migrate.model import Edit
from migrate.rule import CppRule, Invalid, Valid

QUERY = ("#include <cuda.h>\nint compressible(CUdevice dev) {\n    int ok = 0;\n"
         "    if (cuDeviceGetAttribute(&ok, CU_DEVICE_ATTRIBUTE_GENERIC_COMPRESSION_SUPPORTED, dev) != CUDA_SUCCESS)\n"
         "        return -1;\n    return ok;\n}\n")


class AbsentFeatureAttribute(CppRule):
    code = "CPP073"
    examples = [
        Invalid(QUERY, line=4,
                fixed=QUERY.replace("CUdevice", "hipDevice_t")
                .replace("cuDeviceGetAttribute(&ok, CU_DEVICE_ATTRIBUTE_GENERIC_COMPRESSION_SUPPORTED, dev)",
                         "((*(&ok) = 0), hipSuccess)").replace("CUDA_SUCCESS", "hipSuccess"),
                message="HIP names no CU_DEVICE_ATTRIBUTE_GENERIC_COMPRESSION_SUPPORTED: AMD GPUs have no compressible "
                        "memory, so the query answers 0"),
        Invalid("int clusters(int dev) { int v; cudaDeviceGetAttribute(&v, cudaDevAttrClusterLaunch, dev); return v; }\n",
                fixed="int clusters(int dev) { int v; ((*(&v) = 0), hipSuccess); return v; }\n",
                message="HIP names no cudaDevAttrClusterLaunch: AMD GPUs have no thread block clusters, so the query "
                        "answers 0"),
        Valid("int f(int dev) { int v; hipDeviceGetAttribute(&v, hipDeviceAttributeMultiprocessorCount, dev); return v; }\n"),
    ]

    def check(self, ctx):
        for call, value, name in answered(ctx):
            yield self.finding(ctx, call.start_byte, call.end_byte,
                               f"HIP names no {name}: AMD GPUs have no {ATTRIBUTES[name]}, so the query answers 0",
                               edits=[Edit(call.start_byte, call.end_byte, f"((*({decoded(value.text)}) = 0), hipSuccess)")],
                               title="Answer 0")
