"""The check cache: a warm run runs the rules only on files that changed; corrupt entries are rebuilt; two real
processes checking the same tree at once both succeed; --no-cache neither reads nor writes."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from migrate.check.cache import FORMAT
from tests.helpers import cli, git_repo, write_tree
from tests.test_check import PYPROJECT

pytestmark = pytest.mark.git  # every test here runs git (tests/helpers.py: git_repo)

ROOT = Path(__file__).resolve().parent.parent


def kernel(i: int) -> str:
    return (f"#include <cuda_runtime.h>\n\nvoid step{i}(float* d) {{\n    cudaMalloc(&d, {i + 1} * sizeof(float));\n"
            f"    cudaFree(d);\n}}\n")


def project(root: Path, n: int = 8) -> Path:
    files = {f"src/k{i}.cu": kernel(i) for i in range(n)}
    files.update({"pyproject.toml": PYPROJECT, "tools/run.py": "import torch\nok = torch.version.cuda is not None\n",
                  "README.md": "# demo\n"})
    return git_repo(root, files)


def check(root: Path, monkeypatch, *args: str) -> tuple[int, dict]:
    monkeypatch.chdir(root)
    result = cli("check", "--output-format", "json", *args)
    return result.exit_code, json.loads(result.stdout)


def entries(root: Path) -> list[Path]:
    return sorted((root / ".hipmigrate" / "cache" / f"v{FORMAT}").rglob("*.json"))


def entry_of(root: Path, rel: str) -> Path:
    for path in entries(root):
        if json.loads(path.read_text())["body"]["path"] == rel:
            return path
    raise AssertionError(f"no cache entry for {rel}")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return project(tmp_path / "repo")


ALL = sorted([f"src/k{i}.cu" for i in range(8)] + ["tools/run.py", "pyproject.toml"])


def test_warm_run_reads_only_changed_files(repo, monkeypatch):
    code, cold = check(repo, monkeypatch)
    assert code == 1 and len(cold["findings"]) == 8 * 3 + 1
    assert cold["cache"] == {"hits": 0, "misses": 10, "corrupt": 0, "written": 10, "analysed": ALL}
    code, warm = check(repo, monkeypatch)
    assert warm["cache"] == {"hits": 10, "misses": 0, "corrupt": 0, "written": 0, "analysed": []}
    assert warm["findings"] == cold["findings"]
    write_tree(repo, {"src/k3.cu": kernel(3) + "void extra(int* p) { cudaFree(p); }\n"})
    code, third = check(repo, monkeypatch)
    assert third["cache"] == {"hits": 9, "misses": 1, "corrupt": 0, "written": 1, "analysed": ["src/k3.cu"]}
    assert len(third["findings"]) == len(cold["findings"]) + 1
    # the cache folder ignores itself: git sees nothing new
    assert (repo / ".hipmigrate" / "cache" / ".gitignore").read_text().endswith("*\n")
    status = subprocess.run(["git", "-C", str(repo), "status", "--porcelain"], capture_output=True, text=True).stdout
    assert status.splitlines() == [" M src/k3.cu"]


def test_results_depend_on_options_in_the_key(repo, monkeypatch):
    check(repo, monkeypatch)
    code, doc = check(repo, monkeypatch, "--hip-version", "5.2")
    assert doc["cache"]["misses"] == 10 and doc["hip_version"] == "5.2"


def test_corrupt_entries_are_rebuilt(repo, monkeypatch):
    code, clean = check(repo, monkeypatch)
    garbage, truncated, forged = (entry_of(repo, f"src/k{i}.cu") for i in range(3))
    garbage.write_bytes(b"\x00garbage{")
    truncated.write_bytes(truncated.read_bytes()[:40])
    doc = json.loads(forged.read_text())
    doc["body"]["findings"] = []  # a well-formed entry whose checksum no longer matches: never trusted
    forged.write_text(json.dumps(doc))
    code, again = check(repo, monkeypatch)
    assert again["cache"] == {"hits": 7, "misses": 0, "corrupt": 3, "written": 3,
                              "analysed": ["src/k0.cu", "src/k1.cu", "src/k2.cu"]}
    assert again["findings"] == clean["findings"]
    code, after = check(repo, monkeypatch)
    assert after["cache"]["hits"] == 10 and after["cache"]["corrupt"] == 0


def test_no_cache(repo, monkeypatch):
    code, doc = check(repo, monkeypatch, "--no-cache")
    assert code == 1 and doc["cache"]["hits"] == doc["cache"]["misses"] == 0 and len(doc["cache"]["analysed"]) == 10
    assert not (repo / ".hipmigrate").exists()


def test_cache_dir_option_and_config(repo, monkeypatch, tmp_path):
    check(repo, monkeypatch, "--cache-dir", str(tmp_path / "elsewhere"))
    assert len(list((tmp_path / "elsewhere").rglob("*.json"))) >= 10 and not (repo / ".hipmigrate").exists()
    (repo / "pyproject.toml").write_text(PYPROJECT + "cache = false\n")
    code, doc = check(repo, monkeypatch)
    assert doc["cache"]["hits"] == 0 and not (repo / ".hipmigrate").exists()


def test_two_concurrent_processes_both_succeed(tmp_path):
    root = project(tmp_path / "big", n=60)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    command = [sys.executable, "-m", "migrate", "check", "--output-format", "json"]
    procs = [subprocess.Popen(command, cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
             for _ in range(2)]
    outs = [p.communicate(timeout=600) for p in procs]
    for p, (out, err) in zip(procs, outs):
        assert p.returncode == 1, err.decode()
    docs = [json.loads(out) for out, _ in outs]
    assert docs[0]["findings"] == docs[1]["findings"] and len(docs[0]["findings"]) == 60 * 3 + 1
    assert all(d["cache"]["corrupt"] == 0 for d in docs)
    warm = subprocess.run(command, cwd=root, env=env, capture_output=True)
    doc = json.loads(warm.stdout)
    assert warm.returncode == 1 and doc["cache"]["hits"] == 62 and doc["cache"]["corrupt"] == 0
    assert doc["findings"] == docs[0]["findings"]
    assert not list((root / ".hipmigrate" / "cache").rglob("*.tmp"))  # no temporary file left behind
