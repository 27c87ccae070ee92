"""Whole CMake files through every CMake rule together (BLD001-BLD019), the nvcc option table, and a real
configure-and-build of a migrated project with CMake's HIP language and Debian's clang."""
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from migrate.buildfiles.cmake import CMakeContext
from migrate.buildfiles.nvcc_options import is_architecture_option, translate_option, translate_options
from migrate.fixing import run_rules
from migrate.model import Severity
from migrate.options import Options
from migrate.packs import default_packs
from migrate.registry import default_registry

ROOT = Path(__file__).resolve().parent.parent


def migrate_cmake(text: str, **options):
    rules = [r() for r in default_registry().for_kind("cmake")]
    packs = default_packs()

    def run(data: bytes):
        ctx = CMakeContext("CMakeLists.txt", data, Options(**options), packs, "5.2")
        return run_rules(ctx, rules, what="the build file"), ctx

    first, _ = run(text.encode())
    second, ctx = run(first.data)
    assert [f.code for f in second.findings if f.fix] == [], "a second pass still changes the file"
    assert not ctx.parse_errors()
    assert not [f for f in first.findings if f.code == "INP007"], "fixes overlapped"
    return first.data.decode(), first.findings


def test_block_reduce_sample_becomes_a_hip_project():
    text = (ROOT / "samples/block_reduce/src/CMakeLists.txt").read_text()
    out, findings = migrate_cmake(text)
    assert out == """cmake_minimum_required(VERSION 3.21)

# Build for the H200 (sm_90) unless the caller picks another architecture.
if(NOT DEFINED CMAKE_HIP_ARCHITECTURES)
  set(CMAKE_HIP_ARCHITECTURES gfx90a;gfx940)
endif()

project(block_reduce LANGUAGES CXX HIP)

set(CMAKE_HIP_STANDARD 17)
set(CMAKE_HIP_STANDARD_REQUIRED ON)
if(NOT CMAKE_BUILD_TYPE)
  set(CMAKE_BUILD_TYPE Release)
endif()

add_executable(block_reduce block_reduce.cu)
set_source_files_properties(block_reduce.cu PROPERTIES LANGUAGE HIP)

enable_testing()
add_test(NAME block_reduce COMMAND block_reduce)
"""
    assert {f.code for f in findings} == {"BLD001", "BLD005", "BLD006", "BLD010", "BLD017"}


def test_modern_toolkit_project():
    src = """cmake_minimum_required(VERSION 3.18...3.28)
project(rng LANGUAGES CXX CUDA)
find_package(CUDAToolkit 12 REQUIRED)
set(CMAKE_CUDA_FLAGS "${CMAKE_CUDA_FLAGS} --expt-relaxed-constexpr -lineinfo")
set(CMAKE_CUDA_FLAGS_RELEASE "-O3 -Xptxas -O3")
add_library(kern STATIC kern.cu)
set_target_properties(kern PROPERTIES CUDA_ARCHITECTURES "80;90" CUDA_SEPARABLE_COMPILATION ON
                                      CUDA_RUNTIME_LIBRARY Static)
target_compile_options(kern PRIVATE "$<$<COMPILE_LANGUAGE:CUDA>:--use_fast_math;-Xcompiler=-Wall>")
target_compile_features(kern PUBLIC cuda_std_17)
add_executable(app main.cpp)
target_link_libraries(app PRIVATE kern CUDA::cudart CUDA::cublas CUDA::curand nccl)
"""
    out, findings = migrate_cmake(src)
    assert out == """cmake_minimum_required(VERSION 3.21...3.28)
project(rng LANGUAGES CXX HIP)
find_package(hip REQUIRED)
find_package(hipblas REQUIRED)
find_package(hiprand REQUIRED)
set(CMAKE_HIP_FLAGS "${CMAKE_HIP_FLAGS} -gline-tables-only")
set(CMAKE_HIP_FLAGS_RELEASE "-O3")
add_library(kern STATIC kern.cu)
set_source_files_properties(kern.cu PROPERTIES LANGUAGE HIP)
set_target_properties(kern PROPERTIES HIP_ARCHITECTURES "gfx90a;gfx940" CUDA_SEPARABLE_COMPILATION ON)
target_compile_options(kern PRIVATE "$<$<COMPILE_LANGUAGE:HIP>:-ffast-math;-Wall>")
target_compile_features(kern PUBLIC hip_std_17)
add_executable(app main.cpp)
target_link_libraries(app PRIVATE kern hip::host roc::hipblas hip::hiprand rccl)
"""
    warnings = {(f.code, f.span.line) for f in findings if f.severity is Severity.WARNING}
    assert warnings == {("BLD007", 5), ("BLD012", 7)}


def test_findcuda_project():
    src = """cmake_minimum_required(VERSION 3.10)
project(legacy CXX)
set(CUDA_USE_STATIC_CUDA_RUNTIME OFF)
find_package(CUDA REQUIRED)
list(APPEND CUDA_NVCC_FLAGS -O3 --use_fast_math -gencode arch=compute_70,code=sm_70)
cuda_include_directories(${CMAKE_SOURCE_DIR}/include)
include_directories(${CUDA_INCLUDE_DIRS})
cuda_add_executable(legacy main.cu util.cpp OPTIONS -lineinfo)
cuda_add_cublas_to_target(legacy)
target_link_libraries(legacy ${CUDA_LIBRARIES})
if(CUDA_VERSION VERSION_LESS 11)
  message(FATAL_ERROR "old")
endif()
"""
    out, findings = migrate_cmake(src)
    assert out == """cmake_minimum_required(VERSION 3.21)
project(legacy CXX)
enable_language(HIP)
find_package(hip REQUIRED)
find_package(hipblas REQUIRED)
string(APPEND CMAKE_HIP_FLAGS " -O3 -ffast-math")
include_directories(${CMAKE_SOURCE_DIR}/include)
include_directories(${hip_INCLUDE_DIRS})
add_executable(legacy main.cu util.cpp)
set_source_files_properties(main.cu PROPERTIES LANGUAGE HIP)
target_compile_options(legacy PRIVATE $<$<COMPILE_LANGUAGE:HIP>:-gline-tables-only>)
target_link_libraries(legacy roc::hipblas)
target_link_libraries(legacy hip::host)
if(CUDA_VERSION VERSION_LESS 11)
  message(FATAL_ERROR "old")
endif()
"""
    assert [(f.code, f.span.line) for f in findings if f.severity is Severity.WARNING] == [("BLD018", 11)]


def test_already_migrated_file_is_left_alone():
    src = """cmake_minimum_required(VERSION 3.21)
project(p LANGUAGES CXX HIP)
find_package(hip REQUIRED)
set(CMAKE_HIP_ARCHITECTURES gfx90a)
add_executable(p p.cu)
set_source_files_properties(p.cu PROPERTIES LANGUAGE HIP)
target_compile_options(p PRIVATE $<$<COMPILE_LANGUAGE:HIP>:-ffast-math>)
target_link_libraries(p PRIVATE hip::host)
"""
    out, findings = migrate_cmake(src)
    assert out == src and findings == ()


def test_plain_cmake_project_is_left_alone():
    src = "cmake_minimum_required(VERSION 3.10)\nproject(tool CXX)\nadd_executable(tool main.cpp)\n" \
          "target_compile_options(tool PRIVATE -O2 -Wall)\n"
    out, findings = migrate_cmake(src)
    assert out == src and findings == ()


@pytest.mark.parametrize(("words", "expected", "lost"), [
    ("-O3 --use_fast_math -lineinfo", ["-O3", "-ffast-math", "-gline-tables-only"], []),
    ("--expt-relaxed-constexpr -expt-extended-lambda --extended-lambda", [], []),
    ("-Xcompiler -fopenmp -Xcompiler=-Wall,-Wextra --compiler-options -fPIC",
     ["-fopenmp", "-Wall", "-Wextra", "-fPIC"], []),
    ("-rdc=true --relocatable-device-code false -dc", ["-fgpu-rdc", "-fgpu-rdc", "-c"], []),
    ("-arch=sm_80 -arch sm_90 -gencode arch=compute_80,code=sm_80 --gpu-architecture=native", [], []),
    ("-Xptxas -v --maxrregcount=64", [], ["-Xptxas -v", "--maxrregcount=64"]),
    ("-std=c++17 --std c++14 -x cu -G -lcublas -lm",
     ["-std=c++17", "-std=c++14", "-x", "hip", "-g", "-lhipblas", "-lm"], []),
    ("-ccbin g++ --default-stream per-thread -ftz=true -prec-div=false -fmad=false",
     ["-fgpu-default-stream=per-thread", "-fgpu-flush-denormals-to-zero", "-fno-hip-fp32-correctly-rounded-divide-sqrt",
      "-ffp-contract=off"], []),
    ("-arch x86_64 -I/opt/include -DUSE_GPU=1 ${EXTRA}",
     ["-arch", "x86_64", "-I/opt/include", "-DUSE_GPU=1", "${EXTRA}"], []),
])
def test_nvcc_options(words, expected, lost):
    new, dropped = translate_options(words.split())
    assert new == expected
    assert [o for o, _ in dropped] == lost


def test_translate_option_api():
    assert translate_option(["-O2"], 0) == (["-O2"], 1, "")
    new, consumed, reason = translate_option(["-Xptxas", "-v", "-O2"], 0)
    assert new is None and consumed == 2 and "ptxas" in reason
    assert translate_option(["--expt-relaxed-constexpr"], 0).words == []
    assert is_architecture_option("-arch=sm_80") and is_architecture_option("-gencode")
    assert not is_architecture_option("-O2")


def _hip_cmake_env():
    """What CMake 3.25's HIP language needs on Debian 12: clang++-15 as the HIP compiler with --rocm-path and
    --hip-device-lib-path, a ROCm root whose lib/cmake holds hip-lang (CMake before 3.27 looks nowhere else),
    and the multiarch CMake directory on CMAKE_PREFIX_PATH for hip-lang's dependency amd_comgr."""
    clang = shutil.which("clang++-15")
    multiarch = Path("/usr/lib/x86_64-linux-gnu/cmake")
    if not (shutil.which("cmake") and clang and (multiarch / "hip-lang/hip-lang-config.cmake").exists()):
        pytest.skip("cmake, clang++-15 or Debian's hip-lang CMake package is missing")
    return clang, multiarch


@pytest.mark.hipcc
def test_migrated_block_reduce_configures_and_builds(tmp_path):
    clang, multiarch = _hip_cmake_env()
    src = ROOT / "samples/block_reduce/src"
    from migrate import api
    _, result = api.analyse(src, Options(hip_version="5.2"))
    out = tmp_path / "src"
    for r in result.files:
        (out / r.path).parent.mkdir(parents=True, exist_ok=True)
        (out / r.path).write_bytes(r.new if r.new is not None else (src / r.path).read_bytes())
    root = tmp_path / "rocm"
    (root / "lib").mkdir(parents=True)
    (root / "lib/cmake").symlink_to(multiarch)
    env = {**os.environ, "HIP_PLATFORM": "amd", "CMAKE_PREFIX_PATH": str(multiarch)}
    configure = subprocess.run(
        ["cmake", "-S", str(out), "-B", str(tmp_path / "build"), f"-DCMAKE_HIP_COMPILER={clang}",
         "-DCMAKE_HIP_FLAGS=--rocm-path=/usr --hip-device-lib-path=/usr/lib/x86_64-linux-gnu/amdgcn/bitcode",
         f"-DCMAKE_HIP_COMPILER_ROCM_ROOT={root}"], capture_output=True, text=True, env=env, timeout=300)
    assert configure.returncode == 0, configure.stdout[-3000:] + configure.stderr[-3000:]
    build = subprocess.run(["cmake", "--build", str(tmp_path / "build"), "-v"], capture_output=True, text=True,
                           env=env, timeout=600)
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]
    assert "--offload-arch=gfx90a --offload-arch=gfx940" in build.stdout
    assert (tmp_path / "build/block_reduce").exists()
