"""`hipmigrate suggest --base REF` on real git repositories: the patch (it applies with `git apply` and the result
passes `check`), the GitHub review body, rdjson; only added lines are touched."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.helpers import cli, git, write_tree
from tests.test_check import BASE_CU, BASE_PY, feature_repo

pytestmark = pytest.mark.git  # every test here runs git (tests/helpers.py: git_repo)

PATCH = """diff --git a/app.py b/app.py
--- a/app.py
+++ b/app.py
@@ -6,5 +6,5 @@
 
 
 def main():
-    if torch.version.cuda:
+    if torch.version.cuda or torch.version.hip:
         return torch.zeros(3)
diff --git a/k.cu b/k.cu
--- a/k.cu
+++ b/k.cu
@@ -1,5 +1,5 @@
 #include <cstdio>
-#include <cuda_runtime.h>
+#include <hip/hip_runtime.h>
 
 void legacy(float* p) { cudaFree(p); }
 
@@ -9,7 +9,7 @@
 }
 
 void launch(float* d) {
-    cudaMalloc(&d, 64 * sizeof(float));
+    hipMalloc(&d, 64 * sizeof(float));
     scale<<<1, 64>>>(d, 2.0f);
-    cudaDeviceSynchronize();
+    hipDeviceSynchronize();
 }
"""


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return feature_repo(tmp_path / "repo")


def suggest(root: Path, monkeypatch, *args: str):
    monkeypatch.chdir(root)
    return cli("suggest", *args)


def git_apply(root: Path, patch: str) -> None:
    subprocess.run(["git", "-C", str(root), "apply", "--check", "-"], input=patch.encode(), check=True)
    subprocess.run(["git", "-C", str(root), "apply", "-"], input=patch.encode(), check=True)


def test_patch_touches_only_added_lines(repo, monkeypatch):
    result = suggest(repo, monkeypatch, "--base", "main")
    assert result.exit_code == 0
    assert result.stdout == PATCH  # the legacy cudaFree on line 4 (not added by the branch) stays


def test_patch_applies_and_the_result_passes_check(repo, monkeypatch):
    patch = suggest(repo, monkeypatch, "--base", "main", "--unsafe-fixes").stdout
    assert "-    int lane = threadIdx.x % 32;\n+    int lane = threadIdx.x % warpSize;\n" in patch
    assert cli("check", "--base", "main").exit_code == 1
    git_apply(repo, patch)
    result = cli("check", "--base", "main")
    assert result.exit_code == 0, result.stdout
    assert (repo / "k.cu").read_text().splitlines()[3] == "void legacy(float* p) { cudaFree(p); }"
    assert cli("check").exit_code == 1  # the legacy line is still CUDA: the whole-tree gate still says so
    assert suggest(repo, monkeypatch, "--base", "main", "--unsafe-fixes").stdout == ""


def test_patch_without_unsafe_fixes_leaves_the_hazard_for_check(repo, monkeypatch):
    git_apply(repo, suggest(repo, monkeypatch, "--base", "main").stdout)
    result = cli("check", "--base", "main", "--output-format", "json")
    assert result.exit_code == 1
    assert [(f["code"], f["line"]) for f in json.loads(result.stdout)["findings"]] == [("HAZ001", 7)]


def test_github_review(repo, monkeypatch):
    result = suggest(repo, monkeypatch, "--base", "main", "--output-format", "github")
    assert result.exit_code == 0
    review = json.loads(result.stdout)
    merge_base = git(repo, "merge-base", "main", "HEAD").strip()
    assert review["event"] == "COMMENT"
    assert review["body"] == ("hipmigrate: 4 suggested changes to HIP and 1 finding(s) to fix by hand, in 2 file(s), "
                              f"on the lines this branch adds since main ({merge_base[:12]}).")
    comments = review["comments"]
    assert [(c["path"], c.get("start_line"), c["line"], c["side"]) for c in comments] == [
        ("app.py", None, 9, "RIGHT"), ("k.cu", None, 2, "RIGHT"), ("k.cu", None, 7, "RIGHT"),
        ("k.cu", None, 12, "RIGHT"), ("k.cu", None, 14, "RIGHT")]
    assert comments[1]["body"] == ("**hipmigrate**: the HIP version of this line\n\n- `CPP001` <cuda_runtime.h> is "
                                   "<hip/hip_runtime.h> in HIP\n\n```suggestion\n#include <hip/hip_runtime.h>\n```")
    assert comments[3]["body"] == ("**hipmigrate**: the HIP version of this line\n\n- `MAP001` cudaMalloc is hipMalloc "
                                   "in HIP\n\n```suggestion\n    hipMalloc(&d, 64 * sizeof(float));\n```")
    assert comments[4]["body"].endswith("```suggestion\n    hipDeviceSynchronize();\n```")
    # the hazard has only an unsafe fix: a comment without a suggestion block
    assert comments[2]["body"].startswith("**hipmigrate**: CUDA-only, needs a change by hand\n\n- `HAZ001`")
    assert "```suggestion" not in comments[2]["body"]


def test_github_review_with_unsafe_fixes_suggests_the_hazard_fix(repo, monkeypatch):
    review = json.loads(suggest(repo, monkeypatch, "--base", "main", "--unsafe-fixes", "--output-format",
                                "github").stdout)
    lane = [c for c in review["comments"] if c["path"] == "k.cu" and c["line"] == 7]
    assert len(lane) == 1 and lane[0]["body"].endswith("```suggestion\n    int lane = threadIdx.x % warpSize;\n```")


def test_rdjson_suggestions(repo, monkeypatch):
    doc = json.loads(suggest(repo, monkeypatch, "--base", "main", "--output-format", "rdjson").stdout)
    first = doc["diagnostics"][1]
    assert first["location"] == {"path": "k.cu", "range": {"start": {"line": 2, "column": 1},
                                                           "end": {"line": 2, "column": 26}}}
    assert first["suggestions"] == [{"range": {"start": {"line": 2, "column": 1}, "end": {"line": 2, "column": 26}},
                                     "text": "#include <hip/hip_runtime.h>"}]
    sync = doc["diagnostics"][3]
    assert sync["suggestions"][0]["range"] == {"start": {"line": 14, "column": 1}, "end": {"line": 14, "column": 29}}
    assert sync["suggestions"][0]["text"] == "    hipDeviceSynchronize();"
    assert [(d["code"]["value"], d["location"]["range"]["start"]["line"]) for d in doc["diagnostics"]] == \
        [("PY009", 9), ("CPP001", 2), ("MAP001", 12), ("MAP001", 14), ("HAZ001", 7)]


def test_new_file_is_wholly_added_and_the_include_is_suggested(tmp_path, monkeypatch):
    root = feature_repo(tmp_path / "r", cu=BASE_CU, py=BASE_PY + "\n# more\n")
    write_tree(root, {"ops/new.cu": "__global__ void k(int* p) { p[threadIdx.x] = 1; }\n\n"
                                    "void go(int* p) {\n    cudaMemset(p, 0, 4);\n}\n"})
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "new file")
    patch = suggest(root, monkeypatch, "--base", "main").stdout
    assert patch == ("diff --git a/ops/new.cu b/ops/new.cu\n--- a/ops/new.cu\n+++ b/ops/new.cu\n"
                     "@@ -1,5 +1,6 @@\n+#include <hip/hip_runtime.h>\n"
                     " __global__ void k(int* p) { p[threadIdx.x] = 1; }\n \n void go(int* p) {\n"
                     "-    cudaMemset(p, 0, 4);\n+    hipMemset(p, 0, 4);\n }\n")
    git_apply(root, patch)
    assert cli("check", "--base", "main").exit_code == 0


def test_no_trailing_newline_and_suggestion_paths_from_a_subfolder(tmp_path, monkeypatch):
    root = feature_repo(tmp_path / "r", cu=BASE_CU + "void g(int* p) { cudaFree(p); }", py=BASE_PY)
    patch = suggest(root / ".", monkeypatch, "--base", "main").stdout
    assert patch.endswith("-void g(int* p) { cudaFree(p); }\n\\ No newline at end of file\n"
                          "+void g(int* p) { hipFree(p); }\n\\ No newline at end of file\n")
    git_apply(root, patch)
    assert (root / "k.cu").read_bytes().endswith(b"{ hipFree(p); }")


def test_nothing_to_suggest(tmp_path, monkeypatch):
    root = feature_repo(tmp_path / "r", cu=BASE_CU + "int twice(int x) { return 2 * x; }\n", py=BASE_PY)
    assert suggest(root, monkeypatch, "--base", "main").stdout == ""
    review = json.loads(suggest(root, monkeypatch, "--base", "main", "--output-format", "github").stdout)
    assert review["comments"] == [] and review["body"].startswith("hipmigrate: no CUDA-only code")


def test_base_is_required(repo, monkeypatch):
    result = suggest(repo, monkeypatch)
    assert result.exit_code == 2 and "--base" in result.stderr


def test_adjacent_changed_lines_make_one_multi_line_suggestion(tmp_path, monkeypatch):
    cu = BASE_CU + "void h(float* d) {\n    cudaMalloc(&d, 4);\n    cudaFree(d);\n}\n"
    root = feature_repo(tmp_path / "r", cu=cu, py=BASE_PY)
    review = json.loads(suggest(root, monkeypatch, "--base", "main", "--output-format", "github").stdout)
    [comment] = review["comments"]
    assert (comment["start_line"], comment["line"], comment["start_side"]) == (5, 6, "RIGHT")
    assert comment["body"] == ("**hipmigrate**: the HIP version of these lines\n\n- `MAP001` cudaMalloc is hipMalloc in "
                               "HIP\n- `MAP001` cudaFree is hipFree in HIP\n\n```suggestion\n    hipMalloc(&d, 4);\n"
                               "    hipFree(d);\n```")
