"""`hipmigrate build`: real hipcc compiles for AMD targets, diagnostics mapped to the original lines."""
import json
from pathlib import Path

import pytest

from migrate.verify import diagnostics
from tests.helpers import cli

BROKEN = Path(__file__).resolve().parent / "fixtures" / "broken"


def test_broken_project_findings_at_the_original_lines_with_causes(tmp_path, hipcc):
    out = tmp_path / "out"
    result = cli("run", BROKEN, "--out", out, "--hip-version", "5.2", "--build", "--offload-arch", "gfx90a",
                 "--output-format", "json")
    assert result.exit_code == 1
    doc = json.loads(result.stdout)["build"]
    assert doc["source"] == str(BROKEN) and doc["targets"] == ["gfx90a"]
    assert {(u["path"], u["status"]) for u in doc["units"]} == {
        ("inline_ptx.cu", "failed"), ("missing_header.cu", "failed"), ("newer_api.cu", "failed"),
        ("type_mismatch.cu", "failed"), ("unsupported_api.cu", "failed")}
    found = sorted((f["path"], f["line"], f["code"]) for u in doc["units"] for f in u["findings"]
                   if f["severity"] == "error")
    assert found == [
        ("inline_ptx.cu", 5, "BLD905"),  # line 6 of the migrated file: the added include is not counted
        ("missing_header.cu", 3, "BLD901"),
        ("newer_api.cu", 7, "BLD904"),
        ("newer_api.cu", 7, "BLD908"),  # hipGraphInstantiateWithParams: HIP 6.4, this hipcc is 5.2
        ("type_mismatch.cu", 7, "BLD904"),
        ("unsupported_api.cu", 7, "BLD902"),
    ]
    saved = json.loads((out / ".hipmigrate" / "build.json").read_text())  # the report model's state of the build
    assert (saved["format"], saved["part"]) == ("hipmigrate-state", "build")
    assert [(u["path"], u["target"], u["status"]) for u in saved["units"]] == [
        (u["path"], u["target"], u["status"]) for u in doc["units"]]


@pytest.mark.parametrize("version, hipcc_of, targets", [
    ("5.2", "hipcc", ["gfx90a", "gfx940"]),  # Debian's HIP 5.2: MI200 and the first MI300 target
    ("6.4", "hipcc64", ["gfx942"]),  # HIP 6.4 (clang 21): MI300X
    ("7.2", "hipcc72", ["gfx942"]),  # HIP 7.2 (LLVM 22): MI300X
])
@pytest.mark.hipcc
def test_clean_tree_builds_for_the_default_targets_of_the_release_it_was_migrated_for(tmp_path, request, version,
                                                                                        hipcc_of, targets):
    hipcc = request.getfixturevalue(hipcc_of)
    src = tmp_path / "src"
    src.mkdir()
    (src / "k.cu").write_text("#include <cuda_runtime.h>\n__global__ void k(float* a) { a[threadIdx.x] = 1; }\n"
                              "int main() { float* d; cudaMalloc(&d, 4); k<<<1, 1>>>(d); return 0; }\n")
    (src / "host.cpp").write_text("int host_only() { return 1; }\n")
    assert cli("run", src, "--out", tmp_path / "out", "--hip-version", version).exit_code == 0
    result = cli("build", tmp_path / "out", "--output-format", "json")
    assert result.exit_code == 0, result.stdout
    doc = json.loads(result.stdout)
    assert [(u["path"], u["target"], u["status"]) for u in doc["units"]] == [("k.cu", t, "ok") for t in targets]
    assert doc["skipped"] == ["host.cpp"]
    assert doc["hip_version"].startswith(version) and doc["hipcc"] == hipcc


def test_build_leaves_nothing_in_the_temporary_folder(tmp_path, hipcc, monkeypatch):
    """hipcc (Debian's clang) leaves an empty folder named after each source it compiles in $TMPDIR: the compile
    checks and the project's own build get a scratch folder of their own, removed after."""
    src = tmp_path / "src"
    src.mkdir()
    (src / "scratchy.cu").write_text("__global__ void k(float* a) { a[threadIdx.x] = 1; }\nint main() { return 0; }\n")
    (src / "Makefile").write_text("scratchy: scratchy.cu\n\tnvcc -O2 -o $@ $<\n")
    assert cli("run", src, "--out", tmp_path / "out").exit_code == 0
    tmpdir = tmp_path / "tmpdir"
    tmpdir.mkdir()
    monkeypatch.setenv("TMPDIR", str(tmpdir))
    result = cli("build", tmp_path / "out", "--offload-arch", "gfx90a", "--project-build", "--output-format", "json")
    assert result.exit_code == 0, result.stdout
    doc = json.loads(result.stdout)
    assert [(u["path"], u["status"]) for u in doc["units"]] == [("scratchy.cu", "ok")]
    assert doc["project"]["status"] == "ok" and (tmp_path / "out" / "scratchy").is_file()
    assert sorted(p.name for p in tmpdir.iterdir()) == []


def test_separate_compilation_units_check_with_relocatable_device_code(tmp_path, hipcc):
    """A unit that calls a __device__ function of another unit builds only with -fgpu-rdc (nvcc's -rdc=true):
    without it hipcc links the unit's device code under -c too and stops at an undefined symbol."""
    src = tmp_path / "src"
    src.mkdir()
    (src / "lib.cu").write_text("__device__ float twice(float x) { return 2 * x; }\n")
    (src / "main.cu").write_text("extern __device__ float twice(float x);\n"
                                 "__global__ void k(float* v) { v[threadIdx.x] = twice(v[threadIdx.x]); }\n"
                                 "int main() { return 0; }\n")
    assert cli("run", src, "--out", tmp_path / "out").exit_code == 0
    result = cli("build", tmp_path / "out", "--offload-arch", "gfx90a", "--output-format", "json")
    assert result.exit_code == 0, result.stdout
    units = json.loads(result.stdout)["units"]
    assert [(u["path"], u["status"]) for u in units] == [("lib.cu", "ok"), ("main.cu", "ok")]
    assert "-fgpu-rdc" in units[1]["command"] and "-fgpu-rdc" not in units[0]["command"]


def test_build_usage_errors(tmp_path, hipcc, hipcc64, hipcc72):
    missing = cli("build", tmp_path / "nope")
    assert missing.exit_code == 2 and "not a folder" in missing.stderr
    src = tmp_path / "src"
    src.mkdir()
    (src / "k.cu").write_text("__global__ void k(float* a) { a[threadIdx.x] = 1; }\n")
    assert cli("run", src, "--out", tmp_path / "t", "--hip-version", "5.2").exit_code == 0
    bad = cli("build", tmp_path / "t", "--offload-arch", "gfx1100")
    assert bad.exit_code == 2
    assert f"--offload-arch gfx1100: HIP 5.2 ({hipcc}) (Debian clang version 15.0.6) cannot compile for it; " \
           f"HIP 7.2 ({hipcc72}) can: pass --hip-version 7.2" in bad.stderr
    nvidia = cli("build", tmp_path / "t", "--offload-arch", "sm_80")
    assert nvidia.exit_code == 2
    assert "--offload-arch 'sm_80': not an AMD GPU target (an NVIDIA architecture: AMD targets are gfx names); " \
           "known targets: gfx900, gfx906, gfx908, gfx90a, gfx940, gfx941, gfx942, gfx950, gfx1030" in nvidia.stderr
    typo = cli("build", tmp_path / "t", "--offload-arch", "gfx9420")
    assert typo.exit_code == 2 and "--offload-arch 'gfx9420': not an AMD GPU target; known targets: gfx900" in typo.stderr
    future = cli("build", tmp_path / "t", "--hip-version", "9.9")
    assert future.exit_code == 2
    assert "--hip-version '9.9': the mapping packs know HIP 5.2 to 7.2 (5.2, 5.3, 5.4, 5.5, 5.7, 6.1, 6.4, 7.0, 7.1, " \
           "7.2); give one of those or a release between them" in future.stderr
    not_installed = cli("build", tmp_path / "t", "--hip-version", "6.1")
    assert not_installed.exit_code == 2
    assert (f"no HIP 6.1 toolchain installed (found: HIP 7.2 ({hipcc72}), HIP 6.4 ({hipcc64}), HIP 5.2 ({hipcc})); "
            "install ROCm 6.1") \
        in not_installed.stderr
    assert cli("run", src, "--out", tmp_path / "t2", "--offload-arch", "gfx94").exit_code == 2


def test_build_refuses_a_tree_run_did_not_make_unless_forced(tmp_path, hipcc):
    tree = tmp_path / "cuda"
    tree.mkdir()
    (tree / "k.cu").write_text("#include <cuda_runtime.h>\n__global__ void k(float* a) { a[threadIdx.x] = 1; }\n")
    refused = cli("build", tree, "--hip-version", "5.2")
    assert refused.exit_code == 2
    assert (f"{tree}: no .hipmigrate/run.json, so `hipmigrate run` did not make this tree and its sources may still "
            "be CUDA; migrate it first (hipmigrate run SRC --out DST) or pass --force") in refused.stderr
    assert sorted(p.name for p in tree.iterdir()) == ["k.cu"]  # nothing written
    forced = cli("build", tree, "--hip-version", "5.2", "--offload-arch", "gfx90a", "--force", "--output-format", "json")
    assert forced.exit_code == 1
    finding = json.loads(forced.stdout)["units"][0]["findings"][0]
    assert (finding["path"], finding["line"], finding["code"]) == ("k.cu", 1, "BLD901")
    assert (tree / ".hipmigrate" / "build.json").is_file()


@pytest.mark.parametrize("how", ["run --build", "build"])
def test_relative_output_folder_builds(tmp_path, hipcc, monkeypatch, how):
    """hipcc runs in each unit's folder: the paths it is given must not be relative to the current folder."""
    src = tmp_path / "src"
    (src / "sub").mkdir(parents=True)
    (src / "sub" / "k.cu").write_text("#include <cuda_runtime.h>\n#include \"k.h\"\n"
                                      "__global__ void k(float* a) { a[threadIdx.x] = SCALE; }\n")
    (src / "sub" / "k.h").write_text("#define SCALE 2\n")
    monkeypatch.chdir(tmp_path)
    args = ["--hip-version", "5.2", "--offload-arch", "gfx90a", "--output-format", "json"]
    if how == "build":
        assert cli("run", "src", "--out", "rel/out", "--hip-version", "5.2").exit_code == 0
        result = cli("build", "rel/out", *args)
        doc = json.loads(result.stdout)
    else:
        result = cli("run", "src", "--out", "rel/out", "--build", *args)
        doc = json.loads(result.stdout)["build"]
    assert result.exit_code == 0, result.stdout
    assert [(u["path"], u["status"], len(u["findings"])) for u in doc["units"]] == [("sub/k.cu", "ok", 0)]
    assert doc["root"] == str(tmp_path / "rel" / "out")


def test_a_failed_unit_shows_the_first_error_and_a_shared_header_error_once(tmp_path, hipcc, monkeypatch):
    monkeypatch.setenv("COLUMNS", "160")  # the table row on one line
    src = tmp_path / "src"
    src.mkdir()
    (src / "common.h").write_text("#pragma once\ninline int helper() { return undefined_in_header; }\n")
    for name in ("a", "b", "c"):
        (src / f"{name}.cu").write_text(f'#include "common.h"\n__global__ void {name}(int* p) {{ p[0] = helper(); }}\n')
    assert cli("run", src, "--out", tmp_path / "out", "--hip-version", "5.2").exit_code == 0
    result = cli("build", tmp_path / "out", "--offload-arch", "gfx90a", "--offload-arch", "gfx940")
    assert result.exit_code == 1
    rows = [line.split("│")[1:-1] for line in result.stdout.splitlines() if line.startswith("│")]
    assert [[cell.strip() for cell in row if cell.strip()] for row in rows][:2] == [
        ["a.cu", "gfx90a", "failed", row_seconds(rows[0]), "2",
         "BLD903 common.h:2: use of undeclared identifier 'undefined_in_header'"],
        ["a.cu", "gfx940", "failed", row_seconds(rows[1]), "2",
         "BLD903 common.h:2: use of undeclared identifier 'undefined_in_header'"]]
    assert result.stdout.splitlines()[1:3] == [
        "blockers: 6 of 6 compiles failed; 4 distinct errors, the most met first:",
        "     6 x BLD903 common.h:2: use of undeclared identifier 'undefined_in_header' (3 units)"]
    report = cli("report", tmp_path / "out", "--output-format", "md").stdout
    assert ("| 6 | BLD903 | undeclared identifier: use of undeclared identifier 'undefined_in_header' | `common.h:2` | "
            "fix this line (6 compiles stop here in 3 units: a.cu, b.cu, c.cu) |") in report, report
    lines = [line.strip() for line in result.stdout.splitlines() if line.strip().startswith("common.h:2:")]
    assert lines == ["common.h:2:30: BLD903 undeclared identifier: use of undeclared identifier "
                     "'undefined_in_header' (x6, 3 units)"]


def row_seconds(row: list[str]) -> str:
    return row[3].strip()


def test_a_header_of_a_newer_release_says_which_release_has_it(tmp_path, hipcc):
    """bfloat16 code migrated for HIP 6.4 includes hip/hip_bf16.h (HIP 5.7 and later): built with HIP 5.2, the
    missing header is reported as needing 5.7."""
    src = tmp_path / "src"
    src.mkdir()
    (src / "bf.cu").write_text("#include <cuda_bf16.h>\n"
                               "__global__ void k(__nv_bfloat16* p) { p[0] = __float2bfloat16(1.0f); }\n")
    assert cli("run", src, "--out", tmp_path / "out", "--hip-version", "6.4").exit_code == 0
    result = cli("build", tmp_path / "out", "--hip-version", "5.2", "--offload-arch", "gfx90a", "--output-format", "json")
    assert result.exit_code == 1
    finding = json.loads(result.stdout)["units"][0]["findings"][0]
    assert (finding["line"], finding["code"]) == (1, "BLD908")
    assert finding["message"] == ("HIP API newer than this hipcc's HIP (gfx90a): 'hip/hip_bf16.h' file not found "
                                  "(HIP 5.7 and later have it: build with --hip-version 5.7 or newer)")


def test_diagnostics_are_classified_by_cause():
    output = "\n".join([
        "a.cu:3:10: fatal error: 'cudnn.h' file not found",
        "a.cu:7:5: error: use of undeclared identifier 'cudaFoo'",
        "a.cu:8:5: error: use of undeclared identifier 'helper'",
        "a.cu:9:12: error: cannot initialize a variable of type 'float *' with an rvalue of type 'hipError_t'",
        "<inline asm>:1:2: error: invalid instruction",
        "a.cu:5:18: error: invalid instruction",
        "a.cu:9:12: error: cannot initialize a variable of type 'float *' with an rvalue of type 'hipError_t'",
        "a.cu:2:1: warning: unused variable 'x' [-Wunused-variable]",
        "a.cu:4:1: error: expected ';' after expression",
    ])
    assert [(d.path, d.line, d.code, d.cause) for d in diagnostics.parse(output)] == [
        ("a.cu", 3, "BLD901", "missing-header"),
        ("a.cu", 7, "BLD902", "unsupported-api"),
        ("a.cu", 8, "BLD903", "undeclared-identifier"),
        ("a.cu", 9, "BLD904", "type-mismatch"),
        ("<inline asm>", 1, "BLD905", "inline-asm"),
        ("a.cu", 5, "BLD905", "inline-asm"),
        ("a.cu", 2, "BLD907", "warning"),
        ("a.cu", 4, "BLD906", "other"),
    ]


def test_flags_come_from_the_compile_database_made_in_the_original_tree(tmp_path, hipcc):
    src = tmp_path / "src"
    (src / "inc").mkdir(parents=True)
    (src / "inc" / "config.h").write_text("#ifndef WIDTH\n#error WIDTH must be defined\n#endif\n")
    (src / "app.cu").write_text('#include <cuda_runtime.h>\n#include "config.h"\n'
                                "__global__ void k(float* a) { a[threadIdx.x] = WIDTH; }\n")
    (src / "compile_commands.json").write_text(json.dumps([{
        "directory": str(src), "file": str(src / "app.cu"),
        "arguments": ["nvcc", f"-I{src / 'inc'}", "-DWIDTH=4", "-std=c++17", "-c", "app.cu"]}]))
    assert cli("run", src, "--out", tmp_path / "out").exit_code == 0
    ok = cli("build", tmp_path / "out", "--offload-arch", "gfx90a", "--output-format", "json")
    assert ok.exit_code == 0, ok.stdout
    unit = json.loads(ok.stdout)["units"][0]
    assert f"-I{tmp_path / 'out' / 'inc'}" in unit["command"] and "-DWIDTH=4" in unit["command"]
    (tmp_path / "out" / "compile_commands.json").unlink()
    missing = cli("build", tmp_path / "out", "--offload-arch", "gfx90a", "--output-format", "json")
    assert missing.exit_code == 1
    finding = json.loads(missing.stdout)["units"][0]["findings"][0]
    assert (finding["path"], finding["line"], finding["code"]) == ("app.cu", 2, "BLD901")


def test_without_hipcc_the_message_says_how_to_install_it(tmp_path):
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parent.parent
    (tmp_path / "t").mkdir()
    env = {"PATH": str(tmp_path / "no-tools"), "PYTHONPATH": str(root), "HOME": str(tmp_path),
           "ROCM_PATH": str(tmp_path / "no-rocm"), "HIPMIGRATE_TOOLCHAIN": str(tmp_path / "no-toolchain")}
    proc = subprocess.run([sys.executable, "-m", "migrate", "build", str(tmp_path / "t")], capture_output=True,
                          text=True, env=env, cwd=root)
    assert proc.returncode == 2
    assert "hipcc not found: install hipcc: `sudo scripts/install-toolchain`" in proc.stderr
    assert os.path.isdir(tmp_path / "t")


def test_make_variables_choose_the_makefile_branch_for_checks_and_the_project_build(tmp_path, hipcc):
    """--make-var NAME=VALUE sets a make variable as `make NAME=VALUE` does: the compile checks take the flags of the
    branch it selects, and the project build gets it on make's command line."""
    src = tmp_path / "src"
    src.mkdir()
    (src / "Makefile").write_text(
        "PRECISION ?= BF16\n"
        "ifeq ($(PRECISION), FP32)\n  PFLAGS = -DENABLE_FP32\nelse\n  PFLAGS = -DENABLE_BF16\nendif\n"
        "app: app.cu\n\tnvcc -O2 $(PFLAGS) -o $@ $<\n")
    (src / "app.cu").write_text("#ifndef ENABLE_FP32\n#error built without ENABLE_FP32\n#endif\n"
                                "__global__ void k(float* p) { p[0] = 1; }\nint main() { return 0; }\n")
    assert cli("run", src, "--out", tmp_path / "out", "--hip-version", "5.2").exit_code == 0
    default = cli("build", tmp_path / "out", "--offload-arch", "gfx90a", "--output-format", "json")
    assert default.exit_code == 1
    unit = json.loads(default.stdout)["units"][0]
    assert "-DENABLE_BF16" in unit["command"] and "-DENABLE_FP32" not in unit["command"]
    chosen = cli("build", tmp_path / "out", "--offload-arch", "gfx90a", "--make-var", "PRECISION=FP32",
                 "--project-build", "--output-format", "json")
    assert chosen.exit_code == 0, chosen.stdout
    doc = json.loads(chosen.stdout)
    assert "-DENABLE_FP32" in doc["units"][0]["command"] and "-DENABLE_BF16" not in doc["units"][0]["command"]
    assert doc["project"]["command"] == "make -k PRECISION=FP32" and doc["project"]["status"] == "ok"
    bad = cli("build", tmp_path / "out", "--make-var", "PRECISION")
    assert bad.exit_code == 2 and "--make-var 'PRECISION': give NAME=VALUE" in bad.stderr


def test_run_says_which_release_it_migrates_for(tmp_path, hipcc, hipcc64, hipcc72):
    (tmp_path / "k.cu").write_text("__global__ void k() {}\n")
    result = cli("run", tmp_path / "k.cu", "--out", tmp_path / "k.hip")
    assert result.exit_code == 0
    assert (f"hipmigrate: migrating for HIP 7.2, the newest installed toolchain ({hipcc72}); --hip-version X.Y picks "
            "another") in " ".join(result.stderr.split())
    assert "--hip-version" not in cli("run", tmp_path / "k.cu", "--out", tmp_path / "k2.hip", "--hip-version",
                                      "5.2").stderr


def test_a_library_the_link_cannot_find_is_a_finding(tmp_path, hipcc64):
    """RCCL: the HIP 6.4 toolchain has its header, so the unit compiles, but no library to link."""
    src = tmp_path / "src"
    src.mkdir()
    (src / "Makefile").write_text("allreduce: allreduce.cu\n\tnvcc -O2 -o $@ $< -lnccl\n")
    (src / "allreduce.cu").write_text(
        "#include <cuda_runtime.h>\n#include <nccl.h>\n"
        "int main() { ncclComm_t comm; ncclUniqueId id; ncclGetUniqueId(&id); ncclCommInitRank(&comm, 1, id, 0);\n"
        "  float* b; cudaMalloc(&b, 4); ncclAllReduce(b, b, 1, ncclFloat, ncclSum, comm, 0); return 0; }\n")
    assert cli("run", src, "--out", tmp_path / "out", "--hip-version", "6.4").exit_code == 0
    assert "#include <rccl/rccl.h>" in (tmp_path / "out" / "allreduce.cu").read_text()
    result = cli("build", tmp_path / "out", "--project-build", "--output-format", "json")
    assert result.exit_code == 1
    doc = json.loads(result.stdout)
    assert [(u["target"], u["status"]) for u in doc["units"]] == [("gfx942", "ok")]
    (finding,) = [f for f in doc["project"]["findings"] if f["severity"] == "error"]
    assert (finding["path"], finding["code"]) == ("(link)", "BLD910")
    assert finding["message"].startswith("library not found at link time (project build): cannot find -lrccl: the HIP "
                                         "6.4 toolchain of scripts/install-toolchain has RCCL's header but not its")


def test_the_projects_pyproject_names_the_hipcc(tmp_path, hipcc, hipcc64):
    src = tmp_path / "src"
    src.mkdir()
    (src / "k.cu").write_text("__global__ void k(float* a) { a[threadIdx.x] = 1; }\n")
    (src / "pyproject.toml").write_text(f'[tool.hipmigrate]\nhipcc = "{hipcc}"\n')
    assert cli("run", src, "--out", tmp_path / "out", "--hip-version", "6.4").exit_code == 0
    doc = json.loads(cli("build", tmp_path / "out", "--offload-arch", "gfx90a", "--output-format", "json").stdout)
    assert doc["hipcc"] == hipcc and doc["hip_version"].startswith("5.2")  # the setting wins over run.json's 6.4
    chosen = json.loads(cli("build", tmp_path / "out", "--hipcc", hipcc64, "--output-format", "json").stdout)
    assert chosen["hipcc"] == hipcc64 and [u["target"] for u in chosen["units"]] == ["gfx942"]
