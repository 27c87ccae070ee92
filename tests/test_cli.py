"""The hipmigrate command: outputs, exit statuses, usage errors, in-place on real git repositories."""
import json
from pathlib import Path

import pytest

from tests.helpers import cli, cli_json, git, git_repo, read_tree, write_tree

KERNEL = """#include <cuda_runtime.h>
#include <stdio.h>

__global__ void scale(float* a, float s) { a[threadIdx.x] *= s; }

int main() {
    float* d;
    cudaMalloc(&d, 64 * sizeof(float));
    scale<<<1, 64>>>(d, 2.0f);
    printf("cudaMalloc ok\\n");  // cudaFree below
    cudaFree(d);
    return 0;
}
"""
MIGRATED = """#include <hip/hip_runtime.h>
#include <stdio.h>

__global__ void scale(float* a, float s) { a[threadIdx.x] *= s; }

int main() {
    float* d;
    hipMalloc(&d, 64 * sizeof(float));
    scale<<<1, 64>>>(d, 2.0f);
    printf("cudaMalloc ok\\n");  // cudaFree below
    hipFree(d);
    return 0;
}
"""
OTHER = b"# notes about cudaMalloc\n\x00\x01binary-ish but not source\n"


def project(tmp_path: Path) -> Path:
    return write_tree(tmp_path / "src", {"k.cu": KERNEL, "README.md": OTHER, "sub/util.h": "int twice(int x);\n",
                                         ".gitignore": "build/\n", "build/k.o": b"\x7fELF"})


def test_run_migrates_tree_and_copies_the_rest(tmp_path):
    src = project(tmp_path)
    result = cli("run", src, "--out", tmp_path / "out", "--hip-version", "6.2")
    assert result.exit_code == 0, result.output
    out = read_tree(tmp_path / "out")
    state = json.loads(out.pop(".hipmigrate/run.json"))
    assert (state["format"], state["version"], state["part"]) == ("hipmigrate-state", 2, "migration")
    assert state["source"] == str(src.resolve()) and [f for f in state["files"] if f[1] == "migrated"] == [
        ["k.cu", "migrated"]]
    assert out == {"k.cu": MIGRATED.encode(), "README.md": OTHER, "sub/util.h": b"int twice(int x);\n",
                   ".gitignore": b"build/\n"}
    assert "4 files, 1 migrated, 0 skipped; engine builtin" in result.output
    assert "runtime" in result.output and "2" in result.output


def test_run_json_lists_conversions_with_places(tmp_path):
    src = project(tmp_path)
    code, doc = cli_json("run", src, "--out", tmp_path / "out", "--hip-version", "6.2")
    assert code == 0
    assert doc["summary"]["conversions"] == {"runtime": 2}
    assert doc["summary"]["files_changed"] == 1
    found = [(f["path"], f["line"], f["column"], f["code"], f["message"]) for f in doc["findings"]]
    assert found == [
        ("k.cu", 1, 11, "CPP001", "<cuda_runtime.h> is <hip/hip_runtime.h> in HIP"),
        ("k.cu", 8, 5, "MAP001", "cudaMalloc is hipMalloc in HIP"),
        ("k.cu", 11, 5, "MAP001", "cudaFree is hipFree in HIP"),
    ]
    assert doc["findings"][1]["fix"]["edits"] == [{"start": KERNEL.index("cudaMalloc(&d"),
                                                   "end": KERNEL.index("cudaMalloc(&d") + 10, "text": "hipMalloc"}]


def test_a_tree_with_nothing_left_to_migrate_says_so(tmp_path):
    src = write_tree(tmp_path / "src", {"sub/k.cu": KERNEL})
    result = cli("scan", src, "--exclude", "sub/")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[1] == (f"no files found under {src}: is every file there ignored by a "
                                             ".gitignore or an --exclude pattern?")


def test_exclude_leaves_files_out(tmp_path):
    src = project(tmp_path)
    assert cli("run", src, "--out", tmp_path / "out", "--exclude", "sub/").exit_code == 0
    assert sorted(read_tree(tmp_path / "out")) == [".gitignore", ".hipmigrate/run.json", "README.md", "k.cu"]


def test_single_file_to_stdout_and_to_file(tmp_path):
    src = write_tree(tmp_path, {"k.cu": KERNEL}) / "k.cu"
    result = cli("run", src, "--out", "-", "--hip-version", "6.2")
    assert result.exit_code == 0
    assert result.stdout == MIGRATED
    assert cli("run", src, "--out", tmp_path / "k.hip.cu", "--hip-version", "6.2").exit_code == 0
    assert (tmp_path / "k.hip.cu").read_text() == MIGRATED


def test_idempotent_on_its_own_output(tmp_path):
    src = project(tmp_path)
    assert cli("run", src, "--out", tmp_path / "once").exit_code == 0
    code, doc = cli_json("run", tmp_path / "once", "--out", tmp_path / "twice")
    assert code == 0
    assert doc["summary"]["files_changed"] == 0
    once, twice = read_tree(tmp_path / "once"), read_tree(tmp_path / "twice")
    assert once.pop(".hipmigrate/run.json") != twice.pop(".hipmigrate/run.json")  # each records its own run
    assert once == twice


def test_diff_prints_unified_diff_and_writes_nothing(tmp_path):
    src = write_tree(tmp_path / "src", {"k.cu": KERNEL})
    before = read_tree(tmp_path)
    result = cli("diff", src, "--hip-version", "6.2")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[:5] == [
        "--- a/k.cu", "+++ b/k.cu", "@@ -1,13 +1,13 @@", "-#include <cuda_runtime.h>", "+#include <hip/hip_runtime.h>"]
    assert "-    cudaFree(d);" in result.stdout and "+    hipFree(d);" in result.stdout
    assert read_tree(tmp_path) == before


def test_scan_counts_by_family_and_reports_unsupported(tmp_path):
    src = write_tree(tmp_path / "src", {"g.cu": "#include <cuda_runtime.h>\nvoid f(cudaGraph_t g) {\n"
                                                "  cudaInitDevice(0, 0, 0);\n  cudaDeviceSynchronize();\n}\n"})
    result = cli("scan", src, "--hip-version", "6.2")
    assert result.exit_code == 1  # an identifier with no HIP counterpart is an error: it stops the build
    assert "g.cu:3:3: cudaInitDevice has no HIP counterpart" in result.stdout
    assert not (tmp_path / "out").exists()


def test_types_the_project_declares_in_its_headers_are_not_reported_as_cuda_api(tmp_path):
    """how-to-optim-algorithm-in-cuda declares `struct cuHalfComplex` in a header: its 37 uses in another file
    were reported as CUDA API with no HIP counterpart (CPP006). A name declared nowhere still is."""
    src = write_tree(tmp_path / "src", {
        "complex.cuh": "#pragma once\nstruct cuHalfComplex { float r, i; };\ntypedef int cuIndex;\n",
        "gemv.cu": '#include "complex.cuh"\n__global__ void k(cuHalfComplex* v, cuIndex n) { cuUnknownThing(v); }\n'})
    code, doc = cli_json("scan", str(src), "--hip-version", "6.2")
    assert [(f["path"], f["line"], f["message"].split(" ")[0]) for f in doc["findings"] if f["code"] == "CPP006"] == [
        ("gemv.cu", 2, "cuUnknownThing")]


def test_text_output_prints_line_numbers_and_paths_as_they_are(tmp_path):
    """rich reads `:100:` as an emoji code and `[i]` as markup unless told not to: `k.cu:100:8` printed as `k.cu💯8`."""
    body = "// line\n" * 99 + "static cusolverMgHandle_t n = 0;\n" + "// line\n" * 1133 + "cusolverMgHandle_t m;\n"
    src = write_tree(tmp_path / "src", {"dir[i]/k.cu": body})
    result = cli("scan", src, "--hip-version", "6.2")
    assert result.exit_code == 1  # CPP006 errors
    assert "dir[i]/k.cu:100:8: cusolverMgHandle_t has no HIP counterpart" in result.stdout
    assert "dir[i]/k.cu:1234:1: cusolverMgHandle_t has no HIP counterpart" in result.stdout
    assert "\N{HUNDRED POINTS SYMBOL}" not in result.stdout


def test_usage_errors_exit_2(tmp_path):
    src = project(tmp_path)
    missing = cli("run", tmp_path / "nope", "--out", tmp_path / "o")
    assert missing.exit_code == 2 and "no such file or folder" in missing.stderr
    inside = cli("run", src, "--out", src / "out")
    assert inside.exit_code == 2 and "inside the source tree" in inside.stderr
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("keep me")
    full = cli("run", src, "--out", tmp_path / "full")
    assert full.exit_code == 2 and "not an empty folder" in full.stderr
    assert (tmp_path / "full" / "x").read_text() == "keep me"
    both = cli("run", src, "--out", tmp_path / "o2", "--in-place")
    assert both.exit_code == 2 and "exactly one of --out DST and --in-place" in both.stderr
    bad_version = cli("run", src, "--out", tmp_path / "o3", "--hip-version", "six")
    assert bad_version.exit_code == 2 and "give major.minor" in bad_version.stderr


@pytest.mark.git
def test_in_place_refuses_dirty_tree_and_migrates_clean_one(tmp_path):
    repo = git_repo(tmp_path / "repo", {"k.cu": KERNEL, "notes.txt": "x\n"})
    (repo / "notes.txt").write_text("changed\n")
    dirty = cli("run", repo, "--in-place", "--hip-version", "6.2")
    assert dirty.exit_code == 2 and "uncommitted changes (for example notes.txt)" in dirty.stderr
    assert (repo / "k.cu").read_text() == KERNEL
    git(repo, "checkout", "--", "notes.txt")
    clean = cli("run", repo, "--in-place", "--hip-version", "6.2")
    assert clean.exit_code == 0, clean.output
    assert (repo / "k.cu").read_text() == MIGRATED
    assert git(repo, "status", "--porcelain") == " M k.cu\n"


@pytest.mark.git
def test_gitignore_of_a_git_repository_is_honoured(tmp_path):
    repo = git_repo(tmp_path / "repo", {"k.cu": KERNEL, ".gitignore": "*.log\n"})
    (repo / "run.log").write_text("cudaMalloc log\n")
    assert cli("run", repo, "--out", tmp_path / "out").exit_code == 0
    assert sorted(read_tree(tmp_path / "out")) == [".gitignore", ".hipmigrate/run.json", "k.cu"]


@pytest.mark.git
def test_a_folder_the_surrounding_repository_ignores_is_still_migrated(tmp_path):
    """SRC under a repository that ignores it (a vendored copy, a package inside a git-managed ~/.pyenv): the
    user asked for that folder, so only its own .gitignore files count."""
    repo = git_repo(tmp_path / "repo", {".gitignore": "vendor/\n", "README.md": "top\n"})
    (repo / "vendor" / "lib").mkdir(parents=True)
    (repo / "vendor" / "lib" / "k.cu").write_text(KERNEL)
    (repo / "vendor" / "lib" / ".gitignore").write_text("*.log\n")
    (repo / "vendor" / "lib" / "run.log").write_text("cudaMalloc log\n")
    result = cli("run", repo / "vendor" / "lib", "--out", tmp_path / "out", "--hip-version", "6.2")
    assert result.exit_code == 0, result.output
    assert sorted(read_tree(tmp_path / "out")) == [".gitignore", ".hipmigrate/run.json", "k.cu"]
    assert (tmp_path / "out" / "k.cu").read_text() == MIGRATED


def test_rules_lists_and_explains():
    listing = cli("rules")
    assert listing.exit_code == 0
    assert "CPP003" in listing.stdout and "SymbolWithoutHipSymbol" in listing.stdout and "pack:runtime" in listing.stdout
    explained = cli("rules", "cpp003")
    assert explained.exit_code == 0
    assert "void f(float* h) { hipMemcpyToSymbol(HIP_SYMBOL(coef), h, 64); }" in explained.stdout
    unknown = cli("rules", "XYZ123")
    assert unknown.exit_code == 2 and "no rule or pack with code 'XYZ123'" in unknown.stderr


def test_stdout_carries_only_the_source_and_the_json_report_goes_to_stderr(tmp_path):
    src = write_tree(tmp_path, {"k.cu": KERNEL}) / "k.cu"
    result = cli("run", src, "--out", "-", "--hip-version", "6.2", "--output-format", "json")
    assert result.exit_code == 0
    assert result.stdout == MIGRATED
    assert '"files_changed": 1' in result.stderr


def test_jobs_give_the_same_result_as_one_process(tmp_path):
    files = {f"d{i}/k{i}.cu": KERNEL.replace("scale", f"scale{i}") for i in range(30)}
    src = write_tree(tmp_path / "src", files)
    assert cli("run", src, "--out", tmp_path / "one", "--jobs", "1").exit_code == 0
    assert cli("run", src, "--out", tmp_path / "two", "--jobs", "2").exit_code == 0
    one, two = read_tree(tmp_path / "one"), read_tree(tmp_path / "two")
    one.pop(".hipmigrate/run.json"), two.pop(".hipmigrate/run.json")
    assert one == two and len(two) == 30


def test_engine_auto_uses_hipify_perl_when_found(tmp_path, hipify, monkeypatch):
    monkeypatch.setenv("HIPIFY_PERL", hipify)
    src = write_tree(tmp_path / "src", {"k.cu": KERNEL})
    code, doc = cli_json("scan", src, "--engine", "auto", "--hip-version", "6.2")
    assert code == 0
    assert doc["engine"]["name"] == "hipify-perl"
    monkeypatch.setenv("HIPIFY_PERL", str(tmp_path / "missing-hipify-perl"))
    code, doc = cli_json("scan", src, "--engine", "auto", "--hip-version", "6.2")
    assert doc["engine"]["name"] == "builtin"
    missing = cli("scan", src, "--engine", "hipify-perl")
    assert missing.exit_code == 2 and "HIPIFY_PERL=" in missing.stderr and "is not a file" in missing.stderr


@pytest.mark.parametrize("columns", [80, 160])
def test_rules_list_is_one_line_per_rule_at_any_width(columns, monkeypatch):
    """Code, name, fix safety and kind on the rule's line; only the summary wraps (1,228 lines at 80 columns before)."""
    from migrate.registry import default_registry

    monkeypatch.setenv("COLUMNS", str(columns))
    lines = cli("rules").stdout.splitlines()
    assert max(len(line) for line in lines) <= columns
    assert lines[0].split() == ["code", "name", "fix", "kind", "summary"]
    codes = sorted(r.code for r in default_registry().rules)
    starts = [line.split()[0] for line in lines[1:] if line and not line.startswith(" ")]
    packs = {f"MAP{n:03d}" for n in range(1, 100)}  # the packs' rows come after the rules
    engine = [f"BLD{n}" for n in range(901, 911)] + ["CHK001", "ENG001"] + [f"INP{n:03d}" for n in range(1, 15)]
    engine += [f"PRF{n:03d}" for n in range(1, 5)]
    assert [c for c in starts if c not in packs] == codes + engine  # then the codes no rule class carries
    first = next(line for line in lines if line.startswith("CPP003 "))
    assert first.split()[:4] == ["CPP003", "SymbolWithoutHipSymbol", "safe", "cpp"]
    assert len(lines) < 4 * len(starts)
