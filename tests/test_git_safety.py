"""hipmigrate runs nothing a tree's own git config names (issue 28, item 1; migrate/git.py).

Each test makes a real repository, plants in its .git/config (and a file that config includes) every setting that
makes git run a command, each command touching a file of its own name in `ran/`, and shows first that plain git
really runs them (so the plant is live), then that no command of hipmigrate that calls git runs any."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from migrate import git as safe_git
from tests.helpers import cli, git, git_repo

pytestmark = pytest.mark.git

CU = "#include <cuda_runtime.h>\nvoid f(void** p) { cudaMalloc(p, 4); }\n"
HOOKS = ("post-index-change", "reference-transaction", "pre-auto-gc", "post-checkout", "pre-commit",
         "fsmonitor-watchman", "post-merge", "pre-push")


def _mark(tmp_path: Path) -> tuple[Path, Path]:
    ran = tmp_path / "ran"
    ran.mkdir()
    mark = tmp_path / "mark"
    mark.write_text(f'#!/bin/sh\ntouch "{ran}/$1"\n')
    mark.chmod(0o755)
    return ran, mark


def planted(tmp_path: Path) -> tuple[Path, Path]:
    """A repository of two commits (a .cu changed by the second) whose config names a command at every place git
    takes one; returns (repo, ran)."""
    ran, mark = _mark(tmp_path)
    repo = git_repo(tmp_path / "repo", {"a.cu": CU, "notes.txt": "one\n", "b.cuh": "int y;\n", "c.h": "int z;\n", "app/main.cpp": CU,
                                        ".gitattributes": "* filter=evil diff=evil\n*.cuh filter=a=b.c\n"
                                                          "*.h filter=included\n*.cpp filter=proc\n"
                                                          "*.txt diff=plain\n",
                                        "included.gitconfig": f'[filter "included"]\n\tclean = "{mark} included; '
                                                              'cat"\n\trequired = true\n'})
    (repo / "a.cu").write_text(CU + "void g(void* p) { cudaFree(p); }\n")
    (repo / "notes.txt").write_text("one\ntwo\n")  # its diff driver has no command: diff.external's turn
    git(repo, "commit", "-qam", "second")
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    for name in HOOKS:
        for folder in (hooks, repo / ".git" / "hooks"):
            (folder / name).write_text(f"#!/bin/sh\n{mark} hook-{name}\n")
            (folder / name).chmod(0o755)
    settings = {
        "core.fsmonitor": f"{mark} fsmonitor; false",
        "core.hooksPath": str(hooks),
        "filter.evil.clean": f"{mark} clean; cat",
        "filter.evil.smudge": f"{mark} smudge; cat",
        "filter.evil.required": "true",
        "filter.proc.process": f"{mark} process",  # a long-running filter (not one git can talk to: not required)
        "filter.a=b.c.clean": f"{mark} odd-name-clean; cat",  # a driver's name that `-c name=value` would split
        "diff.evil.textconv": f"{mark} textconv; cat",
        "diff.evil.command": f"{mark} diff-command",
        "diff.external": f"{mark} diff-external",
        "core.pager": f"{mark} pager; cat",
        "pager.diff": f"{mark} pager-diff; cat",
        "pager.status": f"{mark} pager-status; cat",
        "credential.helper": f"!{mark} credential",
        "core.sshCommand": f"{mark} ssh",
        "core.askPass": f"{mark} askpass",
        "core.editor": f"{mark} editor",
        "gpg.program": f"{mark} gpg",
        "log.showSignature": "true",
        "status.submoduleSummary": "true",
        "include.path": "../included.gitconfig",
    }
    for key, value in settings.items():
        git(repo, "config", key, value)
    return repo, ran


def _plain_git_runs_them(repo: Path, ran: Path, expected: set[str]) -> None:
    """The control: plain git, as a user would run it in the tree, runs the planted commands (the process filter,
    which cannot talk git's protocol, stops git: it is then set aside to show the others)."""
    env = {"PATH": "/usr/bin:/bin", "HOME": str(repo)}
    for extra in ([], ["-c", "filter.proc.process="]):
        for path in (repo / "a.cu", repo / "b.cuh", repo / "c.h", repo / "app/main.cpp"):
            os.utime(path)  # stat information changed: status and diff read the file again, through its filter
        for args in (["status", "--porcelain"], ["diff", "HEAD~1"]):
            subprocess.run(["git", *extra, "-C", str(repo), *args], capture_output=True, env=env, check=False)
    assert expected <= {p.name for p in ran.iterdir()}
    for p in ran.iterdir():
        p.unlink()
    for path in (repo / "a.cu", repo / "b.cuh", repo / "c.h", repo / "app/main.cpp"):
        os.utime(path)


COMMANDS = {
    "scan": (["scan", "{repo}"], 0),
    "diff": (["diff", "{repo}"], 0),
    "run": (["run", "{repo}", "--out", "{out}"], 0),
    "run --in-place": (["run", "{repo}", "--in-place"], 0),
    "check": (["check", "{repo}"], 1),
    "check FILE": (["check", "{repo}/a.cu"], 1),
    "check --base": (["check", "--base", "HEAD~1", "--no-cache", "."], 1),
    "suggest --base": (["suggest", "--base", "HEAD~1", "--no-cache"], 0),
}


@pytest.mark.parametrize("command", COMMANDS)
def test_no_command_runs_what_the_tree_s_git_config_names(tmp_path, monkeypatch, command):
    repo, ran = planted(tmp_path)
    _plain_git_runs_them(repo, ran, {"fsmonitor", "clean", "odd-name-clean", "included", "process",
                                     "hook-post-index-change", "diff-command", "diff-external"})
    monkeypatch.chdir(repo)
    args, status = COMMANDS[command]
    result = cli(*(a.format(repo=repo, out=tmp_path / "out") for a in args))
    assert (result.exit_code, sorted(p.name for p in ran.iterdir())) == (status, []), result.output
    assert result.stderr.count("error") == 0, result.stderr


def test_in_place_still_migrates_and_leaves_the_index_alone(tmp_path):
    repo, ran = planted(tmp_path)
    index = (repo / ".git" / "index").stat()
    result = cli("run", repo, "--in-place")
    assert result.exit_code == 0, result.output
    assert "hipMalloc" in (repo / "a.cu").read_text() and "hipMalloc" in (repo / "app/main.cpp").read_text()
    assert (repo / ".git" / "index").stat().st_mtime_ns == index.st_mtime_ns  # no optional lock: never rewritten
    assert list(ran.iterdir()) == []


def test_a_missing_object_is_not_fetched_through_the_remote_the_config_names(tmp_path, monkeypatch):
    """A partial clone fetches a missing object from its promisor remote; an `ext::` URL runs a command."""
    ran, mark = _mark(tmp_path)
    repo = git_repo(tmp_path / "repo", {"a.cu": CU})
    (repo / "a.cu").write_text(CU + "void g(void* p) { cudaFree(p); }\n")
    git(repo, "commit", "-qam", "second")
    blob = git(repo, "rev-parse", "HEAD~1:a.cu").strip()
    (repo / ".git" / "objects" / blob[:2] / blob[2:]).unlink()
    for key, value in {"core.repositoryformatversion": "1", "extensions.partialClone": "origin",
                       "remote.origin.promisor": "true", "remote.origin.url": f"ext::sh -c {mark}% ext",
                       "protocol.ext.allow": "always", "protocol.allow": "always"}.items():
        git(repo, "config", key, value)
    subprocess.run(["git", "-C", str(repo), "diff", "HEAD~1"], capture_output=True, env={"PATH": "/usr/bin:/bin"})
    assert [p.name for p in ran.iterdir()] == ["ext"]  # the plant is live
    (ran / "ext").unlink()
    monkeypatch.chdir(repo)
    result = cli("check", "--base", "HEAD~1", "--no-cache", ".")
    assert result.exit_code == 2 and list(ran.iterdir()) == []
    assert f"unable to read {blob}" in result.stderr


def test_a_submodule_s_own_config_is_not_read(tmp_path, monkeypatch):
    ran, mark = _mark(tmp_path)
    inner = git_repo(tmp_path / "inner", {"f.cu": CU})
    repo = git_repo(tmp_path / "repo", {"a.cu": CU})
    git(repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(inner), "sub")
    git(repo, "commit", "-qm", "sub")
    git(repo / "sub", "config", "core.fsmonitor", f"{mark} sub-fsmonitor; false")
    git(repo / "sub", "config", "filter.sub.clean", f"{mark} sub-clean; cat")
    (repo / ".git" / "modules" / "sub" / "info").mkdir(exist_ok=True)
    (repo / ".git" / "modules" / "sub" / "info" / "attributes").write_text("* filter=sub\n")
    os.utime(repo / "sub" / "f.cu")
    subprocess.run(["git", "-C", str(repo), "status"], capture_output=True, env={"PATH": "/usr/bin:/bin"})
    assert {p.name for p in ran.iterdir()} == {"sub-fsmonitor", "sub-clean"}
    for p in ran.iterdir():
        p.unlink()
    os.utime(repo / "sub" / "f.cu")
    monkeypatch.chdir(repo)
    for args in (["run", repo, "--in-place"], ["check", "--base", "HEAD~1", "--no-cache", "."]):
        result = cli(*args)
        assert result.exit_code in (0, 1) and list(ran.iterdir()) == [], result.output


def test_a_repository_of_another_user_is_refused_as_git_refuses_it(tmp_path):
    """safe.directory is git's: hipmigrate never overrides it, and says how to trust the repository."""
    if os.geteuid() != 0:
        pytest.skip("needs root to give the repository to another user")
    repo = git_repo(tmp_path / "repo", {"a.cu": CU})
    for path in [repo, *repo.rglob("*")]:
        os.lchown(path, 65534, 65534)
    env = {k: v for k, v in os.environ.items() if k != "HOME"}
    result = subprocess.run(["python", "-m", "migrate", "run", str(repo), "--in-place"], capture_output=True,
                            text=True, env={**env, "HOME": str(tmp_path)}, cwd=Path(safe_git.__file__).parents[1])
    assert result.returncode == 2
    assert result.stderr.splitlines()[-1] == (
        f"hipmigrate: error: git refuses {repo}: the repository is owned by another user (git's safe.directory "
        f"check); if you trust it, `git config --global --add safe.directory {repo}` and run again")
    assert "cudaMalloc" in (repo / "a.cu").read_text()


def test_an_old_git_is_not_run(tmp_path, monkeypatch):
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "git").write_text("#!/bin/sh\necho 'git version 2.30.9'\n")
    (fake / "git").chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake}:{os.environ['PATH']}")
    safe_git._check_version.cache_clear()
    try:
        with pytest.raises(safe_git.Unavailable, match=r"^git version 2\.30\.9 is older than 2\.31"):
            safe_git.run(tmp_path, "status")
    finally:
        safe_git._check_version.cache_clear()


def test_git_is_called_only_through_migrate_git():
    """One way to run git: no other module of the package starts it."""
    import re

    package = Path(safe_git.__file__).parent
    starts = re.compile(r"""[\[(]\s*(?:["']git["']|git\b)\s*,|which\(\s*["']git["']""")
    found = [str(p.relative_to(package)) for p in sorted(package.rglob("*.py"))
             if p.name != "git.py" and starts.search(p.read_text(encoding="utf-8"))]
    assert found == []


def test_the_bench_fingerprint_reads_git_safely(tmp_path):
    from migrate.bench import fingerprint

    repo, ran = planted(tmp_path)
    _plain_git_runs_them(repo, ran, {"fsmonitor", "clean"})
    fp = fingerprint.of_this_machine(repo, "x")
    assert fp.git_commit == git(repo, "rev-parse", "HEAD").strip() and fp.git_dirty is False
    assert list(ran.iterdir()) == []
