"""Vendored libraries that already support HIP (migrate/stages/ported.py): copied byte for byte with one INP014,
while the project's own code and vendored code that knows nothing of HIP are migrated."""
from tests.helpers import cli_json, read_tree, write_tree

GLM_PLATFORM = b"""\
#pragma once
#if defined(__CUDACC__)
#	if !defined(CUDA_VERSION)
#		include <cuda.h>
#	endif
#	define GLM_COMPILER GLM_COMPILER_CUDA
#elif defined(__HIP__)
#	define GLM_COMPILER GLM_COMPILER_HIP
#endif
"""
GLM_SETUP = b'#include "platform.h"\n#if GLM_COMPILER & GLM_COMPILER_CUDA\n#define GLM_CUDA_FUNC_DEF __device__ __host__\n#endif\n'
KERNEL = "#include <cuda_runtime.h>\n#include <glm/glm.hpp>\n__global__ void k(float* p) { p[threadIdx.x] = 0; }\n"
PLAIN = b"#pragma once\n#include <cuda_runtime.h>\ninline void sync() { cudaDeviceSynchronize(); }\n"


def test_a_vendored_library_that_supports_hip_is_copied_as_it_is(tmp_path):
    src = write_tree(tmp_path / "src", {
        "third_party/glm/glm/simd/platform.h": GLM_PLATFORM, "third_party/glm/glm/setup.hpp": GLM_SETUP,
        "third_party/util/include/sync.h": PLAIN, "libs/json/json.hpp": PLAIN,
        ".gitmodules": '[submodule "libs/json"]\n\tpath = libs/json\n\turl = https://example.invalid/json\n',
        "k.cu": KERNEL})
    code, doc = cli_json("run", str(src), "--out", str(tmp_path / "out"), "--hip-version", "7.2")
    out = read_tree(tmp_path / "out")
    assert out["third_party/glm/glm/simd/platform.h"] == GLM_PLATFORM
    assert out["third_party/glm/glm/setup.hpp"] == GLM_SETUP
    assert [(f["path"], f["line"], f["severity"], f["message"]) for f in doc["findings"] if f["code"] == "INP014"] == [
        ("third_party/glm/glm/simd/platform.h", 7, "info",
         "third_party/glm already supports HIP (this file tests __HIP__): the library is copied as it is, not "
         "migrated; migrating it would send hipcc down the branches it keeps for nvcc")]
    # a vendored library and a submodule that know nothing of HIP are migrated like the project's own code
    assert out["third_party/util/include/sync.h"] == PLAIN.replace(b"cuda_runtime.h", b"hip/hip_runtime.h").replace(
        b"cudaDeviceSynchronize", b"hipDeviceSynchronize")
    assert out["libs/json/json.hpp"] == out["third_party/util/include/sync.h"]
    assert out["k.cu"].startswith(b"#include <hip/hip_runtime.h>\n#include <glm/glm.hpp>\n")
    # migrating the output again changes nothing
    code2, doc2 = cli_json("run", str(tmp_path / "out"), "--out", str(tmp_path / "again"), "--hip-version", "7.2")
    again = read_tree(tmp_path / "again")
    assert {k: v for k, v in again.items() if not k.startswith(".hipmigrate/")} == {
        k: v for k, v in out.items() if not k.startswith(".hipmigrate/")}


def test_a_submodule_that_supports_hip_is_found_through_gitmodules(tmp_path):
    header = b"#pragma once\n#ifdef __HIP_PLATFORM_AMD__\n#include <hip/hip_runtime.h>\n#else\n#include <cuda_runtime.h>\n#endif\n"
    src = write_tree(tmp_path / "src", {"deps_x/shim/gpu.h": header, "k.cu": KERNEL,
                                        ".gitmodules": '[submodule "s"]\n\tpath = deps_x/shim\n'})
    code, doc = cli_json("run", str(src), "--out", str(tmp_path / "out"), "--hip-version", "7.2")
    assert read_tree(tmp_path / "out")["deps_x/shim/gpu.h"] == header
    assert [(f["path"], f["line"]) for f in doc["findings"] if f["code"] == "INP014"] == [("deps_x/shim/gpu.h", 2)]
