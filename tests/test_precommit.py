"""The pre-commit hook, run by the real pre-commit (from PyPI, in the test extra) against git repositories made
here.

Two ways a project can run it, both tested:
- the published hook (.pre-commit-hooks.yaml, `language: python`): pre-commit clones the hook repository at `rev`
  and pip-installs it into a virtualenv of its own. This repository's work tree is copied into a git repository
  of the test's (pre-commit installs committed revisions, and the work tree here may hold uncommitted work), so
  the hook installs exactly this hipmigrate. It needs pip to reach an index (or the machine's wheelhouse).
- `repo: local` with `language: system`: pre-commit runs the hipmigrate already installed (here
  `python -m migrate` of this checkout): no virtualenv, no download.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REQUIRE_TOOLS
from tests.helpers import git, git_repo, write_tree
from tests.test_check import FEATURE_CU, PYPROJECT

ROOT = Path(__file__).resolve().parent.parent
CLEAN_CU = "#include <hip/hip_runtime.h>\n\nvoid f(float* p) { hipFree(p); }\n"

pre_commit = pytest.importorskip("pre_commit", reason="pre-commit is in the test extra: pip install -e '.[test]'")

pytestmark = pytest.mark.git  # every test here runs git (tests/helpers.py: git_repo)


def run_pre_commit(repo: Path, home: Path, env_extra: dict | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, PRE_COMMIT_HOME=str(home), **(env_extra or {}))
    env.pop("PRE_COMMIT_COLOR", None)
    return subprocess.run([sys.executable, "-m", "pre_commit", "run", "--all-files", "--color", "never"], cwd=repo,
                          env=env, capture_output=True, text=True, timeout=900)


def project(root: Path, config: str, cu: str) -> Path:
    repo = git_repo(root, {"pyproject.toml": PYPROJECT, "src/k.cu": cu, "README.md": "# demo: cudaMalloc in prose\n",
                           ".pre-commit-config.yaml": config})
    return repo


def test_local_system_hook(tmp_path):
    config = ("repos:\n- repo: local\n  hooks:\n  - id: hipmigrate-check\n    name: hipmigrate check\n"
              f"    entry: {sys.executable} -m migrate check\n    language: system\n    types: [text]\n"
              "    require_serial: true\n")
    repo = project(tmp_path / "repo", config, FEATURE_CU)
    result = run_pre_commit(repo, tmp_path / "home", {"PYTHONPATH": str(ROOT)})
    assert result.returncode == 1, result.stdout + result.stderr
    assert "hipmigrate check" in result.stdout and "Failed" in result.stdout
    assert "src/k.cu:12:5: MAP001 [info] cudaMalloc is hipMalloc in HIP" in result.stdout
    assert "README.md" not in result.stdout.split("- exit code: 1")[1]
    write_tree(repo, {"src/k.cu": CLEAN_CU})
    git(repo, "commit", "-q", "-am", "migrated")
    result = run_pre_commit(repo, tmp_path / "home", {"PYTHONPATH": str(ROOT)})
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Passed" in result.stdout


def copy_of_this_repository(dest: Path) -> str:
    """This work tree (tracked and untracked files git does not ignore) committed into a repository of its own."""
    names = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                           capture_output=True, check=True).stdout.split(b"\0")
    for raw in names:
        rel = raw.decode()
        if rel and (ROOT / rel).is_symlink():  # migrate/rules -> ../rules: a link, as git keeps it
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            (dest / rel).symlink_to(os.readlink(ROOT / rel))
            continue
        if not rel or not (ROOT / rel).is_file():
            continue
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / rel, dest / rel)
    git(dest, "init", "-q", "-b", "main")
    git(dest, "add", "-A")
    git(dest, "commit", "-q", "-m", "hipmigrate under test")
    return git(dest, "rev-parse", "HEAD").strip()


@pytest.mark.slow
def test_published_hook_installs_hipmigrate_from_the_repository(tmp_path):
    hook_repo = tmp_path / "hipmigrate-src"
    hook_repo.mkdir()
    rev = copy_of_this_repository(hook_repo)
    config = f"repos:\n- repo: {hook_repo.as_uri()}\n  rev: {rev}\n  hooks:\n  - id: hipmigrate-check\n"
    repo = project(tmp_path / "repo", config, FEATURE_CU)
    home = tmp_path / "home"
    env = {"PYTHONPATH": ""}  # the hook must not see this checkout: only what pre-commit installed
    result = run_pre_commit(repo, home, env)
    output = result.stdout + result.stderr
    offline = ("No matching distribution", "Could not find a version", "Temporary failure in name resolution",
               "Network is unreachable", "Failed to establish a new connection")
    if result.returncode == 3 and any(sign in output for sign in offline):
        if REQUIRE_TOOLS:
            pytest.fail(f"pre-commit could not install the hook's dependencies:\n{output[-2000:]}")
        pytest.skip(f"pre-commit could not install the hook's dependencies (no package index):\n{output[-2000:]}")
    assert result.returncode == 1, output
    assert "hipmigrate check (no CUDA-only code)" in result.stdout and "Failed" in result.stdout
    assert "src/k.cu:12:5: MAP001 [info] cudaMalloc is hipMalloc in HIP" in result.stdout
    installed = list(home.rglob("site-packages/migrate/check/runner.py"))
    assert installed, "the hook's virtualenv holds hipmigrate installed from the hook repository"
    write_tree(repo, {"src/k.cu": CLEAN_CU})
    git(repo, "commit", "-q", "-am", "migrated")
    result = run_pre_commit(repo, home, env)
    assert result.returncode == 0, result.stdout + result.stderr
