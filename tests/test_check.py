"""`hipmigrate check` on real git repositories: a base commit, a branch that adds CUDA-only code to a .cu and a
.py file; the exact findings, exit statuses, output formats, suppressions, baselines, --select/--ignore and
`[tool.hipmigrate]`."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import cli, git, git_repo, write_tree

pytestmark = pytest.mark.git  # every test here runs git (tests/helpers.py: git_repo)

PYPROJECT = '[project]\nname = "demo"\nversion = "1.0"\n\n[tool.hipmigrate]\nhip-version = "6.2"\n'
BASE_CU = "#include <cstdio>\n\nvoid legacy(float* p) { cudaFree(p); }\n"
BASE_PY = "import torch\n\n\ndef main():\n    return torch.zeros(3)\n"
FEATURE_CU = """#include <cstdio>
#include <cuda_runtime.h>

void legacy(float* p) { cudaFree(p); }

__global__ void scale(float* a, float s) {
    int lane = threadIdx.x % 32;
    a[lane] *= s;
}

void launch(float* d) {
    cudaMalloc(&d, 64 * sizeof(float));
    scale<<<1, 64>>>(d, 2.0f);
    cudaDeviceSynchronize();
}
"""
FEATURE_PY = """import os

import torch

os.environ["HIP_VISIBLE_DEVICES"] = "0"


def main():
    if torch.version.cuda:
        return torch.zeros(3)
"""
# (code, path, line) on the lines the branch adds
ADDED = [("PY009", "app.py", 9), ("CPP001", "k.cu", 2), ("HAZ001", "k.cu", 7), ("MAP001", "k.cu", 12),
         ("MAP001", "k.cu", 14)]


def commit(root: Path, message: str) -> None:
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", message)


def feature_repo(root: Path, cu: str = FEATURE_CU, py: str = FEATURE_PY) -> Path:
    """main: a clean-ish project (one legacy cudaFree); feature: adds CUDA-only code to k.cu and app.py."""
    git_repo(root, {"pyproject.toml": PYPROJECT, "k.cu": BASE_CU, "app.py": BASE_PY, "README.md": "# demo\n"})
    git(root, "checkout", "-q", "-b", "feature")
    write_tree(root, {"k.cu": cu, "app.py": py})
    commit(root, "feature")
    return root


def run_check(root: Path, monkeypatch, *args: str):
    monkeypatch.chdir(root)
    return cli("check", *args)


def check_json(root: Path, monkeypatch, *args: str) -> tuple[int, dict]:
    result = run_check(root, monkeypatch, *args, "--output-format", "json")
    return result.exit_code, json.loads(result.stdout)


def triples(doc: dict, blocking: bool = True) -> list[tuple[str, str, int]]:
    return [(f["code"], f["path"], f["line"]) for f in doc["findings"] if f["blocking"] is blocking]


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return feature_repo(tmp_path / "repo")


def test_base_limits_findings_to_added_lines(repo, monkeypatch):
    code, doc = check_json(repo, monkeypatch, "--base", "main")
    assert code == 1
    assert triples(doc) == ADDED
    assert doc["base"]["ref"] == "main"
    assert doc["base"]["merge_base"] == git(repo, "merge-base", "main", "HEAD").strip()
    assert doc["summary"]["files"] == 2  # only the files the branch touched; README.md and pyproject unchanged
    assert doc["hip_version"] == "6.2"  # from [tool.hipmigrate]


def test_whole_tree_reports_legacy_code_too(repo, monkeypatch):
    code, doc = check_json(repo, monkeypatch)
    assert code == 1
    assert triples(doc) == sorted(ADDED + [("MAP001", "k.cu", 4)], key=lambda t: (t[1], t[2], t[0]))


def test_base_branch_itself_is_clean_on_added_lines(repo, monkeypatch):
    git(repo, "checkout", "-q", "main")
    code, doc = check_json(repo, monkeypatch, "--base", "main")
    assert (code, doc["findings"], doc["summary"]["files"]) == (0, [], 0)


def test_clean_branch_exits_0(tmp_path, monkeypatch):
    root = feature_repo(tmp_path / "r", cu=BASE_CU + "\nint twice(int x) { return 2 * x; }\n",
                        py=BASE_PY + "\n\ndef other():\n    return torch.ones(2)\n")
    result = run_check(root, monkeypatch, "--base", "main")
    assert result.exit_code == 0, result.stdout
    assert result.stdout == "hipmigrate check: no CUDA-only code in 2 file(s) on lines added since main " \
                            f"({git(root, 'merge-base', 'main', 'HEAD').strip()[:12]})\n"


def test_uncommitted_and_untracked_lines_count_as_added(repo, monkeypatch):
    write_tree(repo, {"new/extra.cu": "void f(int* p) { cudaFree(p); }\n"})
    code, doc = check_json(repo, monkeypatch, "--base", "main")
    assert ("MAP001", "new/extra.cu", 1) in triples(doc)


def test_text_output(repo, monkeypatch):
    result = run_check(repo, monkeypatch, "--base", "main", "--select", "MAP,HAZ")
    assert result.exit_code == 1
    assert result.stdout.splitlines()[:3] == [
        "k.cu:7:16: HAZ001 [warning] 'threadIdx.x % 32' assumes a 32-lane warp: AMD CDNA wavefronts have 64 lanes; "
        "use warpSize",
        "k.cu:12:5: MAP001 [info] cudaMalloc is hipMalloc in HIP",
        "k.cu:14:5: MAP001 [info] cudaDeviceSynchronize is hipDeviceSynchronize in HIP",
    ]
    assert result.stdout.splitlines()[3].startswith("hipmigrate check: 3 CUDA-only finding(s) in 1 file(s) on lines "
                                                    "added since main")


def test_github_annotations(repo, monkeypatch):
    result = run_check(repo, monkeypatch, "--base", "main", "--output-format", "github")
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        "::error file=app.py,line=9,col=8,title=PY009::torch.version.cuda is None on ROCm builds of PyTorch "
        "(torch.version.hip is set instead), so this test takes the non-GPU branch there: accept torch.version.hip too",
        "::error file=k.cu,line=2,col=11,title=CPP001::<cuda_runtime.h> is <hip/hip_runtime.h> in HIP",
        "::error file=k.cu,line=7,col=16,title=HAZ001::'threadIdx.x %25 32' assumes a 32-lane warp: AMD CDNA "
        "wavefronts have 64 lanes; use warpSize",
        "::error file=k.cu,line=12,col=5,title=MAP001::cudaMalloc is hipMalloc in HIP",
        "::error file=k.cu,line=14,col=5,title=MAP001::cudaDeviceSynchronize is hipDeviceSynchronize in HIP",
    ]


def test_sarif(repo, monkeypatch):
    result = run_check(repo, monkeypatch, "--base", "main", "--output-format", "sarif")
    assert result.exit_code == 1
    doc = json.loads(result.stdout)
    assert doc["version"] == "2.1.0"
    run = doc["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == ["PY009", "CPP001", "HAZ001", "MAP001"]
    haz = rules[2]
    assert haz["name"] == "WarpSizeLiteral"
    from migrate import api

    assert haz["help"]["text"] == api.registry().by_code("HAZ001").doc()
    assert haz["defaultConfiguration"]["level"] == "warning"
    assert rules[3]["name"] == "pack:runtime" and "mapping pack renames" in rules[3]["fullDescription"]["text"]
    results = run["results"]
    assert [(r["ruleId"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
             r["locations"][0]["physicalLocation"]["region"]["startLine"]) for r in results] == ADDED
    assert all(r["level"] == "error" for r in results)
    assert results[0]["ruleIndex"] == 0 and results[4]["ruleIndex"] == 3
    malloc = results[3]
    data = (repo / "k.cu").read_bytes()
    change = malloc["fixes"][0]["artifactChanges"][0]["replacements"][0]
    start, length = change["deletedRegion"]["byteOffset"], change["deletedRegion"]["byteLength"]
    assert data[start:start + length] == b"cudaMalloc" and change["insertedContent"]["text"] == "hipMalloc"
    assert len(malloc["partialFingerprints"]["hipmigrate/v1"]) == 16


def test_rdjson_has_suggestions(repo, monkeypatch):
    result = run_check(repo, monkeypatch, "--base", "main", "--output-format", "rdjson")
    assert result.exit_code == 1
    doc = json.loads(result.stdout)
    assert doc["source"]["name"] == "hipmigrate"
    malloc = doc["diagnostics"][3]
    assert malloc["code"]["value"] == "MAP001" and malloc["location"]["path"] == "k.cu"
    assert malloc["location"]["range"] == {"start": {"line": 12, "column": 5}, "end": {"line": 12, "column": 15}}
    assert malloc["suggestions"] == [{"range": {"start": {"line": 12, "column": 5}, "end": {"line": 12, "column": 15}},
                                      "text": "hipMalloc"}]
    assert doc["diagnostics"][0]["suggestions"][0]["text"] == "torch.version.cuda or torch.version.hip"


SUPPRESSED_CU = """#include <cstdio>
#include <cuda_runtime.h>  // hipmigrate: ignore[CPP001]

void legacy(float* p) { cudaFree(p); }

__global__ void scale(float* a, float s) {
    // hipmigrate: ignore[HAZ001, MAP]
    int lane = threadIdx.x % 32;
    a[lane] *= s;
}

void launch(float* d) {
    cudaMalloc(&d, 64 * sizeof(float));  // hipmigrate: ignore
    scale<<<1, 64>>>(d, 2.0f);  // hipmigrate: ignore[HAZ003]
    cudaDeviceSynchronize();
}
"""
SUPPRESSED_PY = FEATURE_PY.replace("if torch.version.cuda:", "if torch.version.cuda:  # hipmigrate: ignore[PY009]")


def test_inline_suppressions_and_unused_ones(tmp_path, monkeypatch):
    root = feature_repo(tmp_path / "r", cu=SUPPRESSED_CU, py=SUPPRESSED_PY)
    code, doc = check_json(root, monkeypatch, "--base", "main")
    assert code == 1
    assert triples(doc) == [("MAP001", "k.cu", 15)]  # the one not suppressed
    assert doc["summary"]["suppressed"] == 4
    notes = [(f["code"], f["line"], f["message"]) for f in doc["findings"] if not f["blocking"]]
    assert notes == [
        ("CHK001", 7, "MAP in this suppression matches no finding (`hipmigrate: ignore[HAZ001, MAP]`): remove the "
                      "codes that no longer occur here"),
        ("CHK001", 14, "this suppression matches no finding (`hipmigrate: ignore[HAZ003]`): remove it"),
    ]


def test_unused_suppression_alone_does_not_fail(tmp_path, monkeypatch):
    root = feature_repo(tmp_path / "r", cu=BASE_CU + "int twice(int x) { return 2 * x; }  // hipmigrate: ignore[MAP001]\n",
                        py=BASE_PY)
    result = run_check(root, monkeypatch, "--base", "main")
    assert result.exit_code == 0
    assert result.stdout.startswith("k.cu:4:40: CHK001 [note] this suppression matches no finding")
    assert run_check(root, monkeypatch, "--base", "main", "--ignore", "CHK001").stdout.startswith(
        "hipmigrate check: no CUDA-only code")


def test_suppression_marker_in_a_string_does_not_count(tmp_path, monkeypatch):
    cu = BASE_CU + 'const char* s = "hipmigrate: ignore"; void g(int* p) { cudaFree(p); }\n'
    root = feature_repo(tmp_path / "r", cu=cu, py=BASE_PY + 'X = "# hipmigrate: ignore"\n')
    code, doc = check_json(root, monkeypatch, "--base", "main")
    assert (code, triples(doc), triples(doc, blocking=False)) == (1, [("MAP001", "k.cu", 4)], [])


def test_baseline_survives_lines_moving(repo, monkeypatch):
    result = run_check(repo, monkeypatch, "--write-baseline", "hipmigrate-baseline.json")
    assert result.exit_code == 0
    saved = json.loads((repo / "hipmigrate-baseline.json").read_text())
    assert [(e["code"], e["path"], e["line"]) for e in saved["findings"]] == \
        sorted(ADDED + [("MAP001", "k.cu", 4)], key=lambda t: (t[1], t[2], t[0]))
    assert run_check(repo, monkeypatch, "--baseline", "hipmigrate-baseline.json").exit_code == 0
    # lines move (a comment block on top) and a new cudaFree appears: only the new one is reported
    moved = "// a header comment\n// spanning two lines\n" + FEATURE_CU + "void more(float* q) { cudaFree(q); }\n"
    write_tree(repo, {"k.cu": moved})
    code, doc = check_json(repo, monkeypatch, "--baseline", "hipmigrate-baseline.json")
    assert (code, triples(doc)) == (1, [("MAP001", "k.cu", 18)])
    assert doc["summary"]["baselined"] == 6


def test_baseline_in_config(repo, monkeypatch):
    assert run_check(repo, monkeypatch, "--write-baseline", "ci/baseline.json").exit_code == 0
    (repo / "pyproject.toml").write_text(PYPROJECT + 'baseline = "ci/baseline.json"\n')
    assert run_check(repo, monkeypatch).exit_code == 0


@pytest.mark.parametrize("args, expected", [
    (("--select", "HAZ"), [("HAZ001", "k.cu", 7)]),
    (("--select", "MAP,CPP"), [("CPP001", "k.cu", 2), ("MAP001", "k.cu", 12), ("MAP001", "k.cu", 14)]),
    (("--ignore", "MAP", "--ignore", "CPP"), [("PY009", "app.py", 9), ("HAZ001", "k.cu", 7)]),
    (("--ignore", "MAP", "--select", "MAP001,HAZ"),  # the more specific entry wins
     [("HAZ001", "k.cu", 7), ("MAP001", "k.cu", 12), ("MAP001", "k.cu", 14)]),
    (("--select", "HAZ", "--ignore", "HAZ001"), []),
    (("--min-severity", "error"), [("CPP001", "k.cu", 2), ("MAP001", "k.cu", 12), ("MAP001", "k.cu", 14),
                                   ("PY009", "app.py", 9)]),
])
def test_select_ignore_and_min_severity(repo, monkeypatch, args, expected):
    code, doc = check_json(repo, monkeypatch, "--base", "main", *args)
    key = lambda t: (t[1], t[2], t[0])  # noqa: E731
    assert sorted(triples(doc), key=key) == sorted(expected, key=key)
    assert code == (1 if expected else 0)


def test_min_severity_error_keeps_python_with_a_fix_but_drops_the_warning_hazard(repo, monkeypatch):
    code, doc = check_json(repo, monkeypatch, "--base", "main", "--min-severity", "error", "--select", "HAZ,PY")
    assert (code, triples(doc)) == (1, [("PY009", "app.py", 9)])


def test_config_select_and_cli_override(repo, monkeypatch):
    (repo / "pyproject.toml").write_text(PYPROJECT + 'select = ["PY"]\nmin-severity = "warning"\n')
    code, doc = check_json(repo, monkeypatch, "--base", "main")
    assert triples(doc) == [("PY009", "app.py", 9)]
    code, doc = check_json(repo, monkeypatch, "--base", "main", "--select", "HAZ")
    assert triples(doc) == [("HAZ001", "k.cu", 7)]


def test_file_arguments_as_pre_commit_passes_them(repo, monkeypatch):
    code, doc = check_json(repo, monkeypatch, "k.cu", "README.md", "pyproject.toml")
    assert code == 1
    assert {f["path"] for f in doc["findings"]} == {"k.cu"} and doc["summary"]["files"] == 2


def test_paths_are_relative_to_the_current_folder(repo, monkeypatch):
    (repo / "src").mkdir()
    git(repo, "mv", "k.cu", "src/k.cu")
    code, doc = check_json(repo, monkeypatch, "src", "--base", "main")
    assert code == 1 and {f["path"] for f in doc["findings"]} == {"src/k.cu"}
    code, doc = check_json(repo / "src", monkeypatch, ".", "--base", "main")
    assert {f["path"] for f in doc["findings"]} == {"k.cu"}


@pytest.mark.parametrize("args, message", [
    (("--select", "XYZ1"), "--select XYZ1: not a rule code or prefix"),
    (("--base", "no-such-branch"), "--base no-such-branch: no merge base"),
    (("missing_dir",), "missing_dir: no such file or folder"),
    (("--baseline", "nope.json"), "--baseline nope.json: no such file"),
    (("--hip-version", "six"), "--hip-version 'six'"),
])
def test_usage_errors_exit_2(repo, monkeypatch, args, message):
    result = run_check(repo, monkeypatch, *args)
    assert result.exit_code == 2
    assert message in result.stderr


def test_bad_config_exits_2(repo, monkeypatch):
    (repo / "pyproject.toml").write_text(PYPROJECT + "colour = true\n")
    result = run_check(repo, monkeypatch)
    assert result.exit_code == 2 and "has no setting 'colour'" in result.stderr
    (repo / "pyproject.toml").write_text(PYPROJECT + "select = \"MAP\"\n")
    assert run_check(repo, monkeypatch).exit_code == 2


def test_base_outside_git_is_a_usage_error(tmp_path, monkeypatch):
    write_tree(tmp_path / "plain", {"k.cu": FEATURE_CU})
    result = run_check(tmp_path / "plain", monkeypatch, "--base", "main")
    assert result.exit_code == 2 and "needs a git work tree" in result.stderr
    assert run_check(tmp_path / "plain", monkeypatch, "--hip-version", "6.2").exit_code == 1


def test_base_is_taken_in_the_repository_of_the_paths(repo, tmp_path, monkeypatch):
    """Run from inside another git repository: --base compares within the checked paths' own repository."""
    other = tmp_path / "other"
    write_tree(other, {"README.md": "other\n"})
    git(other, "init", "-q", "-b", "main")
    git(other, "add", ".")
    git(other, "commit", "-qm", "other")
    code, doc = check_json(other, monkeypatch, str(repo), "--base", "main", "--hip-version", "6.2")
    assert code == 1
    assert doc["base"]["merge_base"] == git(repo, "merge-base", "main", "HEAD").strip()
    assert sorted((c, Path(p).name, line) for c, p, line in triples(doc)) == sorted(
        (c, Path(p).name, line) for c, p, line in ADDED)
    result = run_check(other, monkeypatch, str(repo), str(other), "--base", "main")
    assert result.exit_code == 2 and "within one git repository" in result.stderr


def test_file_argument_kind_counts_its_folder(tmp_path, monkeypatch):
    """A file passed by itself gets the kind `run` gives it, folders included: requirements/base.txt is a
    requirements file (its name alone is not)."""
    write_tree(tmp_path, {"requirements/base.txt": "torch==2.3.1+cu121\n"})
    code, doc = check_json(tmp_path, monkeypatch, "requirements/base.txt", "--hip-version", "6.2")
    assert code == 1
    assert [(f["code"], f["path"], f["line"]) for f in doc["findings"]] == [("PY041", "requirements/base.txt", 1)]
    code, whole = check_json(tmp_path, monkeypatch, ".", "--hip-version", "6.2")
    assert [(f["code"], f["path"]) for f in whole["findings"]] == [("PY041", "requirements/base.txt")]


def test_fixable_count_follows_the_fix_policy(tmp_path, monkeypatch):
    """A warp-size literal's fix is graded unsafe: `run` applies it only with --unsafe-fixes, and the summary says so."""
    write_tree(tmp_path, {"lane.cu": "#include <hip/hip_runtime.h>\n__global__ void k(int* p) { p[threadIdx.x % 32] = 1; }\n"})
    monkeypatch.chdir(tmp_path)
    plain = cli("check", "lane.cu", "--no-cache", "--hip-version", "6.4")
    assert plain.exit_code == 1
    assert ("HAZ001 1; 0 fixable by `hipmigrate run`, 1 more with `--unsafe-fixes` (target HIP 6.4)"
            in plain.stdout), plain.stdout
    (tmp_path / "pyproject.toml").write_text("[tool.hipmigrate]\nunsafe-fixes = true\n")
    unsafe = cli("check", "lane.cu", "--no-cache", "--hip-version", "6.4")
    assert "HAZ001 1; 1 fixable by `hipmigrate run` (target HIP 6.4)" in unsafe.stdout, unsafe.stdout
