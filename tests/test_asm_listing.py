"""`hipmigrate scan` lists every inline-PTX site with its instructions and the HIP builtins to use instead."""
from migrate.cpp import ptx
from tests.helpers import cli, cli_json, write_tree

SOURCE = r"""#include <cuda_runtime.h>

__device__ unsigned lane_id() {
  unsigned id;
  asm("mov.u32 %0, %%laneid;" : "=r"(id));
  return id;
}

__device__ float load(const float* p) {
  float v, w;
  asm volatile("ld.global.nc.v2.f32 {%0, %1}, [%2];" : "=f"(v), "=f"(w) : "l"(p));
  return v + w;
}

__global__ void copy(int* s, const float* in, float* out) {
  __asm__ __volatile__("cp.async.ca.shared.global [%0], [%1], 16;\n\t"
                       "cp.async.wait_all;" :: "r"(s[0]), "l"(in));
  out[threadIdx.x] = load(in) + lane_id();
}

#define SM_ID(r) asm volatile("mov.u32 %0, %%smid;" : "=r"(r))

void host_pause() { asm volatile("pause" ::: "memory"); }
"""


def project(tmp_path):
    return write_tree(tmp_path / "src", {"ptx.cu": SOURCE, "other.cu": "__global__ void k() {}\n"})


def test_scan_lists_every_asm_site(tmp_path):
    result = cli("scan", project(tmp_path), "--hip-version", "7.0", "--no-progress")
    assert result.exit_code == 1  # inline PTX is an error on AMD
    lines = result.stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if "inline assembly sites" in line)
    end = lines.index("migration effort (review weight: warning 1, error 3)")
    assert lines[start:end] == [
        "4 inline assembly sites (PTX does not build for AMD):",
        "  ptx.cu:5:3: mov.u32, %laneid",
        "      %laneid → __lane_id()",
        "  ptx.cu:11:3: ld.global.nc.v2.f32",
        "      ld.global.nc.v2.f32 → __ldg()",
        "  ptx.cu:16:3: cp.async.ca.shared.global, cp.async.wait_all",
        "      cp.async.ca.shared.global: no HIP counterpart",
        "      cp.async.wait_all: no HIP counterpart",
        "  ptx.cu:21:18: mov.u32, %smid",
        "      %smid → __smid()",
    ]


def test_scan_json_lists_the_same_sites(tmp_path):
    code, doc = cli_json("scan", project(tmp_path), "--hip-version", "7.0")
    assert code == 1
    assert doc["inline_asm"] == [
        {"path": "ptx.cu", "line": 5, "column": 3, "instructions": ["mov.u32", "%laneid"],
         "suggestions": [{"ptx": "%laneid", "hip": "__lane_id()"}]},
        {"path": "ptx.cu", "line": 11, "column": 3, "instructions": ["ld.global.nc.v2.f32"],
         "suggestions": [{"ptx": "ld.global.nc.v2.f32", "hip": "__ldg()"}]},
        {"path": "ptx.cu", "line": 16, "column": 3,
         "instructions": ["cp.async.ca.shared.global", "cp.async.wait_all"],
         "suggestions": [{"ptx": "cp.async.ca.shared.global", "hip": None},
                         {"ptx": "cp.async.wait_all", "hip": None}]},
        {"path": "ptx.cu", "line": 21, "column": 18, "instructions": ["mov.u32", "%smid"],
         "suggestions": [{"ptx": "%smid", "hip": "__smid()"}]},
    ]
    messages = [f["message"] for f in doc["findings"] if f["code"] == "HAZ005"]
    assert messages[0] == "inline PTX does not compile for AMD GPUs: it uses mov.u32, %laneid (%laneid → __lane_id())"
    assert len(messages) == 4


def test_the_finding_carries_its_ptx_items_with_escapes_undone_and_strings_joined(tmp_path):
    """The listing reads the items off the finding (Finding.detail); it parses neither the message nor the text."""
    from migrate import api
    from migrate.options import Options

    kernel = ('__global__ void k(int x, int y) {\n'
              '    asm volatile("add.s32 %0, %1, 1;\\n\\t" "mov.u32 %0, %%laneid;" : "=r"(x) : "r"(y));\n}\n')
    src = write_tree(tmp_path / "src", {"k.cu": kernel})
    _, result = api.analyse(src, Options(hip_version="6.2"))
    (f,) = [f for f in result.findings if f.code == "HAZ005"]
    assert f.detail == ("add.s32", "mov.u32", "%laneid")
    (site,) = ptx.listing(result.findings)
    assert (site.line, site.instructions) == (2, ("add.s32", "mov.u32", "%laneid"))