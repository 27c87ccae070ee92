"""Line layout that once changed code silently (a // comment continued by a backslash, lone-CR line endings,
bytes that are not UTF-8 in a build file), and hipify-perl's output made stable (byte-order mark, idempotence)."""
import pytest

from migrate.toolchain import TOOLCHAIN
from tests.conftest import need_tool
from tests.helpers import cli, cli_json, write_tree

CONTINUED = b"// text \\\nint x;  this line is still the comment\n__global__ void k() {}\n"


def test_include_goes_after_a_comment_continued_by_a_backslash(tmp_path):
    src = write_tree(tmp_path, {"k.cu": CONTINUED}) / "k.cu"
    result = cli("run", src, "--out", tmp_path / "out.cu", "--hip-version", "6.2")
    assert result.exit_code == 0
    out = (tmp_path / "out.cu").read_bytes()
    assert out == (b"// text \\\nint x;  this line is still the comment\n#include <hip/hip_runtime.h>\n"
                   b"__global__ void k() {}\n")
    assert cli("run", tmp_path / "out.cu", "--out", tmp_path / "again.cu", "--hip-version", "6.2").exit_code == 0
    assert (tmp_path / "again.cu").read_bytes() == out


def test_a_file_with_old_mac_line_endings_is_migrated_and_keeps_them(tmp_path):
    data = (b"// kernel file\r#include <cuda_runtime.h>\r__global__ void k(float* a) { a[threadIdx.x] = 0; }\r"
            b"void f(float** p) { cudaMalloc(p, 4); }\r")
    src = write_tree(tmp_path / "src", {"mac.cu": data, "nohdr.cu": b"// note\r__global__ void g() {}\r"})
    status, doc = cli_json("run", src, "--out", tmp_path / "out", "--hip-version", "6.2")
    assert status == 0
    assert (tmp_path / "out" / "mac.cu").read_bytes() == (
        b"// kernel file\r#include <hip/hip_runtime.h>\r__global__ void k(float* a) { a[threadIdx.x] = 0; }\r"
        b"void f(float** p) { hipMalloc(p, 4); }\r")
    assert (tmp_path / "out" / "nohdr.cu").read_bytes() == b"// note\r#include <hip/hip_runtime.h>\r__global__ void g() {}\r"
    assert sorted((f["path"], f["code"], f["line"]) for f in doc["findings"]) == [
        ("mac.cu", "CPP001", 2), ("mac.cu", "MAP001", 4), ("nohdr.cu", "CPP002", 2)]


def test_a_makefile_with_old_mac_line_endings_is_migrated_and_keeps_them(tmp_path):
    data = b"NVCC = nvcc\rCUDA_PATH ?= /usr/local/cuda\rall:\r\t$(NVCC) -arch=sm_80 -o app app.cu\r"
    src = write_tree(tmp_path / "src", {"Makefile": data})
    assert cli("run", src, "--out", tmp_path / "out", "--hip-version", "6.2").exit_code == 0
    assert (tmp_path / "out" / "Makefile").read_bytes() == (
        b"NVCC = hipcc\rROCM_PATH ?= /opt/rocm\rall:\r\t$(NVCC) --offload-arch=gfx942 -o app -x hip app.cu\r")


def test_latin1_bytes_in_a_cmake_flag_string_stay_and_the_flags_beside_them_migrate(tmp_path):
    data = b'set(CMAKE_CUDA_FLAGS "${CMAKE_CUDA_FLAGS} -Dcaf\xe9 --use_fast_math")\n'
    src = write_tree(tmp_path / "src", {"CMakeLists.txt": data})
    assert cli("run", src, "--out", tmp_path / "out", "--hip-version", "6.2").exit_code == 1  # INP003
    assert (tmp_path / "out" / "CMakeLists.txt").read_bytes() == \
        b'set(CMAKE_HIP_FLAGS "${CMAKE_HIP_FLAGS} -Dcaf\xe9 -ffast-math")\n'


@pytest.mark.hipify_perl
def test_hipify_perl_keeps_the_byte_order_mark_first_and_a_rerun_changes_nothing(tmp_path):
    need_tool("hipify-perl")
    data = (b"\xef\xbb\xbf__constant__ float c[4];\r\n__global__ void k() {}\r\n"
            b"void f(float* h) { cudaMemcpyToSymbol(c, h, 16); cudaMemcpyFromSymbol(h, c, 16); k<<<1,1>>>(); }\r\n")
    src = write_tree(tmp_path, {"k.cu": data}) / "k.cu"
    first = cli("run", src, "--out", tmp_path / "one.cu", "--engine", "hipify-perl", "--hip-version", "6.2")
    assert first.exit_code == 0
    out = (tmp_path / "one.cu").read_bytes()
    assert out == (b'\xef\xbb\xbf#include "hip/hip_runtime.h"\r\n__constant__ float c[4];\r\n__global__ void k() {}\r\n'
                   b"void f(float* h) { hipMemcpyToSymbol(HIP_SYMBOL(c), h, 16); "
                   b"hipMemcpyFromSymbol(h, HIP_SYMBOL(c), 16); k<<<1,1>>>(); }\r\n")
    again = cli("run", tmp_path / "one.cu", "--out", tmp_path / "two.cu", "--engine", "hipify-perl",
                "--hip-version", "6.2")
    assert again.exit_code == 0
    assert (tmp_path / "two.cu").read_bytes() == out


def test_a_hipify_perl_variable_naming_no_file_says_so(tmp_path, monkeypatch):
    monkeypatch.setenv("HIPIFY_PERL", str(tmp_path / "nope"))
    src = write_tree(tmp_path, {"k.cu": b"__global__ void k() {}\n"}) / "k.cu"
    result = cli("run", src, "--out", "-", "--engine", "hipify-perl", "--hip-version", "6.2")
    assert result.exit_code == 2
    assert result.stderr == (f"hipmigrate: error: HIPIFY_PERL={tmp_path / 'nope'} is not a file (so nothing else was "
                             "searched): point it at hipify-perl, or unset it to look on PATH, in $ROCM_PATH/bin "
                             f"(/opt/rocm/bin) and in {TOOLCHAIN}/bin\n")
