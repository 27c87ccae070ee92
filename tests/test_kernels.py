"""The per-kernel diff (`hipmigrate build --kernels`, migrate/kernels/): the compilers' real output parsed, the
occupancy arithmetic against hand-worked values, every CUDA sample's kernels paired with plausible figures (real
nvcc and hipcc, one target per toolchain), and the findings of samples/kernel_pressure with code and line."""
import json
from pathlib import Path

import pytest

from migrate import toolchain
from migrate.kernels import amdgpu, occupancy, ptxas, state
from migrate.kernels.demangle import base_name, signature
from migrate.kernels.diff import kernel_diff, project_arch
from migrate.kernels.hardware import tables
from migrate.kernels.pairing import pair
from migrate.kernels.model import Usage
from migrate.kernels.sources import scan
from tests.marks import need_tool
from tests.helpers import cli, golden_release, write_tree

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "fixtures" / "kernels"  # each file's first line is the command that made it
SAMPLES = sorted(p.parent for p in (ROOT / "samples").glob("*/src"))
NV, AMD = tables().nvidia, tables().amd


def test_ptxas_output_parsed():
    got = {u.mangled: (u.arch, u.registers, u.shared, u.spills, u.scratch)
           for u in ptxas.parse((DATA / "ptxas-sm_90.txt").read_text())}
    assert got == {"_Z8row_sumsPKfiPf": ("sm_90", 31, 128, 0, 0),
                   "_Z14histogram_binsPKjiPj": ("sm_90", 14, 32768, 0, 0),
                   "_Z10stage_rowsPKfPf": ("sm_90", 14, 0, 0, 0),
                   "_Z15tile_accumulatePKfS0_Pfii": ("sm_90", 168, 0, 0, 0)}


def test_ptxas_spills_and_device_functions():
    text = ("ptxas info    : Function properties for _Z6helperf\n"
            "    8 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
            "ptxas info    : Compiling entry function '_Z1kPf' for 'sm_80'\n"
            "ptxas info    : Function properties for _Z1kPf\n"
            "    40 bytes stack frame, 16 bytes spill stores, 24 bytes spill loads\n"
            "ptxas info    : Used 255 registers, used 0 barriers, 40 bytes cumulative stack size, 380 bytes cmem[0]\n")
    assert ptxas.parse(text) == [Usage("_Z1kPf", "sm_80", 255, 0, 40, 40)]


@pytest.mark.parametrize("name, target, expected", [
    ("hipcc64-gfx942.txt", "gfx942", {"_Z15tile_accumulatePKfS0_Pfii": (128, 28, 0, 0, 112, 228, 4),
                                      "_Z10stage_rowsPKfPf": (42, 33, 0, 0, 0, 0, 8),
                                      "_Z14histogram_binsPKjiPj": (8, 21, 0, 32768, 0, 0, 8),
                                      "_Z8row_sumsPKfiPf": (7, 17, 0, 128, 0, 0, 8)}),
    ("hipcc52-gfx90a.txt", "gfx90a", {"_Z15tile_accumulatePKfS0_Pfii": (128, 26, 0, 0, 112, 212, 4),
                                      "_Z10stage_rowsPKfPf": (51, 37, 0, 0, 0, 0, 8),
                                      "_Z14histogram_binsPKjiPj": (8, 15, 0, 32768, 0, 0, 8),
                                      "_Z8row_sumsPKfiPf": (6, 14, 0, 128, 0, 0, 8)}),
])
def test_hipcc_remarks_parsed(name, target, expected):
    """HIP 6.4 says TotalSGPRs, HIP 5.2 SGPRs; both give the same fields otherwise."""
    usages = amdgpu.parse((DATA / name).read_text(), target)
    assert {u.mangled: (u.registers, u.sgprs, u.agprs, u.shared, u.spills, u.scratch, u.compiler_occupancy)
            for u in usages} == expected
    # our register arithmetic gives the compiler's own waves per SIMD (it assumes other block sizes, not other registers)
    for u in usages:
        t = AMD[target]
        assert min(occupancy.vgpr_waves(t, u.registers, u.agprs), occupancy.sgpr_waves(t, u.sgprs)) \
            == u.compiler_occupancy


@pytest.mark.parametrize("arch, registers, shared, block, expected", [
    # 13 regs: 416 -> 512 a warp; 16384 / 512 = 32 warps a sub-partition, 128 per SM; 8 warps a block: 64 / 8 = 8
    ("sm_90", 13, 32, 256, (64, 64, 8, "warps")),
    # 168 regs: 5376 a warp; 16384 // 5376 = 3 a sub-partition, 12 per SM; 12 // 8 = 1 block
    ("sm_90", 168, 0, 256, (8, 64, 1, "registers")),
    # 32 KiB + 1 KiB reserved: 233472 // 33792 = 6 blocks of 8 warps
    ("sm_90", 14, 32768, 256, (48, 64, 6, "shared memory")),
    # one warp a block: at most 32 blocks
    ("sm_90", 31, 128, 32, (32, 64, 32, "blocks")),
    # 96 KiB: 233472 // 99328 = 2 blocks
    ("sm_90", 14, 98304, 256, (16, 64, 2, "shared memory")),
    # A100: 164 KiB, 167936 // 99328 = 1 block
    ("sm_80", 14, 98304, 256, (8, 64, 1, "shared memory")),
    ("sm_90", 10, 240000, 256, (0, 64, 0, "does not fit")),
])
def test_cuda_occupancy(arch, registers, shared, block, expected):
    o = occupancy.cuda(NV[arch], registers, shared, block)
    assert (o.resident, o.most, o.blocks, o.limit) == expected


@pytest.mark.parametrize("target, vgprs, agprs, sgprs, lds, block, expected", [
    # 128 VGPRs: 512 / 128 = 4 waves a SIMD, 16 a CU; 4 waves a workgroup: 4 workgroups
    ("gfx942", 128, 0, 28, 0, 256, (16, 32, 4, "VGPRs")),
    # 32 KiB of LDS: 65536 // 32768 = 2 workgroups of 4 waves
    ("gfx942", 8, 0, 21, 32768, 256, (8, 32, 2, "LDS")),
    # gfx950: 163840 // 33280 (32 KiB in 1280-byte granules) = 4 workgroups
    ("gfx950", 8, 0, 21, 32768, 256, (16, 32, 4, "LDS")),
    # single-wave workgroups need no barrier: 32 of them
    ("gfx942", 7, 0, 17, 128, 32, (32, 32, 32, "waves")),
    # AGPRs after the VGPRs rounded to 4: 40 + 16 = 56 -> 56; 512 // 56 = 9 -> at most 8 a SIMD
    ("gfx90a", 40, 16, 20, 0, 256, (32, 32, 8, "waves")),
    # 100 VGPRs + 100 AGPRs = 200 -> 200; 512 // 200 = 2 a SIMD, 8 a CU: 2 workgroups of 4 waves
    ("gfx90a", 100, 100, 20, 0, 256, (8, 32, 2, "VGPRs")),
    # SGPRs over 100 on GFX9: 7 waves a SIMD, 28 a CU, 7 workgroups of 4
    ("gfx942", 10, 0, 104, 0, 256, (28, 32, 7, "SGPRs")),
    # RDNA3, wave32, WGP: 1536 / 96 = 16 waves a SIMD, 64 a WGP; 8 waves a workgroup: 8, LDS 131072 // 16384 = 8
    ("gfx1100", 96, 0, 30, 16384, 256, (64, 64, 8, "waves")),
    ("gfx942", 10, 0, 20, 98304, 256, (0, 32, 0, "does not fit")),
])
def test_amd_occupancy(target, vgprs, agprs, sgprs, lds, block, expected):
    o = occupancy.amd(AMD[target], vgprs, agprs, sgprs, lds, block)
    assert (o.resident, o.most, o.blocks, o.limit) == expected


def test_demangled_names_and_pairing():
    assert base_name("void ns::scale<float, 64>(float*)") == "scale"
    assert signature("void ns::scale<float, 64>(float*)") == "ns::scale<float, 64>(float*)"
    assert signature("(anonymous namespace)::k(long)") == "(anonymous namespace)::k(long)"
    cuda = [Usage("a", "sm_90", 10, 0, 0, 0, name="void scale<float, 4>(float*)"),
            Usage("b", "sm_90", 12, 0, 0, 0, name="void scale<double, 4>(double*)"),
            Usage("c", "sm_90", 20, 0, 0, 0, name="init(curandStateXORWOW*, int)")]
    amd = [Usage("b", "gfx942", 6, 0, 0, 0, name="void scale<double, 4>(double*)"),
           Usage("a", "gfx942", 5, 0, 0, 0, name="void scale<float, 4>(float*)"),
           Usage("d", "gfx942", 9, 0, 0, 0, name="init(hiprandStateXORWOW*, int)")]
    got = [(name, c.mangled if c else None, a.mangled if a else None) for name, c, a in pair(cuda, amd)]
    assert got == [("scale<float, 4>(float*)", "a", "a"), ("scale<double, 4>(double*)", "b", "b"),
                   ("init(curandStateXORWOW*, int)", "c", "d")]


def test_block_sizes_from_bounds_and_launches(tmp_path):
    write_tree(tmp_path, {"k.cuh": "#define ROWS 4\n", "a.cu": (
        '#include "k.cuh"\n#define BS 128\nconstexpr int TILE = 16;\nconstexpr size_t BYTES = 96 * 1024;\n'
        "__global__ void __launch_bounds__(BS * 2) bounded(float* d) {}\n"
        "__global__ void tiled(float* d) {}\n"
        "__global__ void rows(float* d) {}\n"
        "__global__ void dynamic(float* d) {}\n"
        "void f(float* d, int n) {\n"
        "  dim3 block(TILE, TILE);\n  int threads = 32 * ROWS;\n"
        "  bounded<<<n, 64>>>(d);\n  tiled<<<dim3(n), block>>>(d);\n"
        "  rows<<<n, threads>>>(d);\n  rows<<<n, threads>>>(d);\n  rows<<<n, 64>>>(d);\n"
        "  dynamic<<<n, dim3(8, 4), BYTES, 0>>>(d);\n}\n")})
    found = scan(tmp_path)
    lines = {name: [(d.path, d.line, d.launch_bounds) for d in defs] for name, defs in found.definitions.items()}
    assert lines == {"bounded": [("a.cu", 5, 256)], "tiled": [("a.cu", 6, None)], "rows": [("a.cu", 7, None)],
                     "dynamic": [("a.cu", 8, None)]}
    assert found.block("bounded", 256) == (256, "__launch_bounds__")
    assert found.block("tiled", None) == (256, "launch at a.cu:13")
    assert found.block("rows", None) == (128, "launch at a.cu:14")
    assert found.block("dynamic", None) == (32, "launch at a.cu:17")
    assert found.dynamic_shared("dynamic") == 98304 and found.dynamic_shared("rows") == 0
    assert found.block("missing", None) == (None, "")


# Every __global__ kernel of each CUDA sample, with its static shared memory: the bytes of the __shared__ arrays it
# declares (ballot_compaction: int[8] + int[1]; multifile_constant: float[256 + 2 * 4]; fused ops: float[256]).
SAMPLE_KERNELS = {
    "ballot_compaction": {"compactGreater": 36},
    "bf16_layernorm": {"layernorm_forward": 0},
    "block_reduce": {"reduceSum": 32},
    "cublas_sgemm": {}, "cublaslt_gelu": {}, "cudnn_conv": {},
    "curand_pi": {"countInside": 4},
    "kernel_pressure": {"tile_accumulate": 0, "stage_rows": 0, "histogram_bins": 32768, "row_sums": 128},
    "multifile_constant": {"init_signal": 0, "stencil_1d": 1056},
    "nccl_nvtx_step": {"weight_gradient": 0, "sgd_update": 0},
    "pytorch_ddp": {"scale_bias_kernel": 0},
    "pytorch_fused_ops": {"adam_step_kernel": 0, "layernorm_forward_kernel": 1024, "softmax_xent_kernel": 1024},
    "saxpy_streams": {"saxpy": 0},
}


def sample_toolchain(sample: Path, request) -> tuple[toolchain.Toolchain, str]:
    """The toolchain and target of the sample's golden release (tests/helpers.py), one target per toolchain."""
    need_tool("nvcc")
    if golden_release(sample) == "5.2":
        return toolchain.choose(hipcc=request.getfixturevalue("hipcc")), "gfx90a"
    return toolchain.choose(hipcc=request.getfixturevalue("hipcc64")), "gfx942"


@pytest.mark.hipcc
@pytest.mark.nvcc
@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_every_sample_kernel_paired(sample, request):
    tc, target = sample_toolchain(sample, request)
    diff = kernel_diff(sample / "expected", (target,), tc, source=sample / "src")
    assert diff.problems == () and diff.cuda_arch == "sm_90"
    got = {base_name(k.name): k for k in diff.kernels}
    assert {name: k.cuda.shared for name, k in got.items()} == SAMPLE_KERNELS[sample.name]
    for k in diff.kernels:
        amd = k.amd[0].usage
        assert k.cuda.registers > 0 and amd.registers > 0 and amd.sgprs > 0, k.name
        assert amd.shared == k.cuda.shared, k.name
        assert k.path and k.line > 0 and k.cuda_occupancy.resident > 0, k.name


@pytest.mark.hipcc
@pytest.mark.nvcc
def test_kernel_pressure_findings_with_code_and_line(request):
    sample = ROOT / "samples" / "kernel_pressure"
    tc, target = sample_toolchain(sample, request)
    diff = kernel_diff(sample / "expected", (target,), tc, source=sample / "src")
    assert [(f.code, f.span.path, f.span.line, f.severity.label) for f in diff.findings] == [
        ("PRF001", "kernel_pressure.cu", 33, "warning"), ("PRF002", "kernel_pressure.cu", 62, "error"),
        ("PRF003", "kernel_pressure.cu", 75, "warning"), ("PRF004", "kernel_pressure.cu", 90, "warning")]
    assert diff.findings[2].message == (
        "histogram_bins(unsigned int const*, int, unsigned int*) on gfx90a: occupancy 25% (8 of 32 waves per CU, "
        "limited by LDS) is 0.33x CUDA's, below 0.5; block of 256 (launch at kernel_pressure.cu:166)")
    rows = {base_name(k.name): k for k in diff.kernels}
    assert rows["stage_rows"].dynamic_shared == 98304
    assert (rows["histogram_bins"].cuda_occupancy.fraction, rows["histogram_bins"].amd[0].ratio) == (0.75, 1 / 3)


@pytest.mark.hipcc
@pytest.mark.nvcc
def test_build_kernels_command(tmp_path, request):
    """End to end: run, then build --kernels (HIP 6.4, gfx942 and gfx950: the 96 KiB block fits gfx950's LDS); the
    state keeps another toolchain's columns beside the new ones."""
    hipcc64 = request.getfixturevalue("hipcc64")
    need_tool("nvcc")
    dst = tmp_path / "out"
    assert cli("run", ROOT / "samples" / "kernel_pressure" / "src", "--out", dst, "--hip-version", "6.4").exit_code == 1
    result = cli("build", dst, "--kernels", "--hipcc", hipcc64, "--offload-arch", "gfx942", "--offload-arch",
                 "gfx950", "--output-format", "json")
    assert result.exit_code == 1  # PRF002 is an error
    doc = json.loads(result.stdout)
    assert doc["columns"] == [["gfx942", "6.4"], ["gfx950", "6.4"]]
    codes = sorted((f["code"], f["line"], f["message"].split(" on ")[1].split(":")[0])
                   for k in doc["kernels"] for f in k["findings"])
    assert codes == [("PRF001", 33, "gfx942"), ("PRF001", 33, "gfx950"), ("PRF002", 62, "gfx942"),
                     ("PRF003", 75, "gfx942"), ("PRF004", 90, "gfx942"), ("PRF004", 90, "gfx950")]
    stage = next(k for k in doc["kernels"] if k["name"].startswith("stage_rows"))
    assert stage["occupancy"]["gfx950@6.4"] == {"resident": 4, "most": 32, "blocks": 1, "limit": "LDS",
                                                "fraction": 0.125, "ratio": 0.5}
    saved = state.load(dst / ".hipmigrate")
    assert [f.code for f in saved.findings] == [f["code"] for k in doc["kernels"] for f in k["findings"]]
    # a column of another toolchain, kept when this one writes the file again
    raw = json.loads((dst / ".hipmigrate" / "kernels.json").read_text())
    raw["columns"] = [["gfx90a", "5.2"]]
    for k in raw["kernels"]:
        k["amd"] = {"gfx90a@5.2": k["amd"]["gfx942@6.4"]}
    (dst / ".hipmigrate" / "kernels.json").write_text(json.dumps(raw))
    text = cli("build", dst, "--kernels", "--hipcc", hipcc64, "--offload-arch", "gfx942")
    assert text.exit_code == 1 and "gfx942" in text.stdout and "PRF002" in text.stdout
    assert state.load(dst / ".hipmigrate").targets == (("gfx942", "6.4"), ("gfx90a", "5.2"))


def test_project_arch_from_build_files(tmp_path):
    write_tree(tmp_path, {"Makefile": "NVCCFLAGS = -gencode arch=compute_80,code=sm_80\n"})
    assert project_arch(tmp_path) == "sm_80"
    write_tree(tmp_path, {"CMakeLists.txt": "set(CMAKE_CUDA_ARCHITECTURES 90)\n"})
    assert project_arch(tmp_path) == "sm_90"
    assert project_arch(tmp_path / "CMakeLists.txt".replace("CMakeLists.txt", "")) == "sm_90"
