"""Snapshots of the corpus's projects extracted from local git mirrors into a cache folder outside the repository.

The mirrors are git directories without a work tree (MIRRORS/owner+name/repo, as the fetch tool leaves them). A
project's tree is CACHE/NAME/src: `git archive COMMIT PATHS | tar -x`, and where the archive stops on a blob the
mirror lacks, each file of `git ls-tree -r` written by `git show` (missing blobs left out and counted). A stamp
file names the commit and paths, so a second run reuses the tree.
"""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from benchmarks.realcode_manifest import Project

STAMP = ".realcode-stamp.json"


def git_dir(mirrors: Path, repo: str) -> Path:
    base = mirrors / repo.replace("/", "+")
    for candidate in (base / "repo", base):
        if (candidate / "HEAD").exists() or (candidate / ".git").exists():
            return candidate / ".git" if (candidate / ".git").is_dir() else candidate
    raise FileNotFoundError(f"no mirror of {repo} under {mirrors} (bring it with the fetch tool)")


def _git(gd: Path, *args, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(["git", f"--git-dir={gd}", *args], capture_output=True, **kw)


def _per_file(gd: Path, commit: str, paths, dest: Path) -> int:
    """Every file of the commit under the paths, one `git show` each; returns how many were missing."""
    listing = _git(gd, "ls-tree", "-r", "-z", commit, "--", *paths, check=True).stdout
    missing = 0
    for entry in listing.split(b"\0"):
        if not entry:
            continue
        meta, _, name = entry.partition(b"\t")
        mode, kind, sha = meta.split()
        if kind != b"blob" or mode == b"120000":
            continue
        blob = _git(gd, "cat-file", "blob", sha.decode())
        if blob.returncode:
            missing += 1
            continue
        target = dest / name.decode("utf-8", "surrogateescape")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(blob.stdout)
    return missing


def _archive(gd: Path, commit: str, paths, dest: Path) -> int:
    """The commit's files under paths written into dest; returns how many blobs the mirror lacked."""
    dest.mkdir(parents=True, exist_ok=True)
    git = subprocess.Popen(["git", f"--git-dir={gd}", "archive", commit, *paths],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    tar = subprocess.run(["tar", "-x", "-C", str(dest)], stdin=git.stdout, capture_output=True)
    git.stdout.close()
    failed = git.wait() or tar.returncode or git.stderr.read().strip()
    if not failed:
        return 0
    shutil.rmtree(dest)
    dest.mkdir(parents=True)
    return _per_file(gd, commit, paths, dest)


def extract(project: Project, mirrors: Path, cache: Path) -> Path:
    """The project's tree at its commit under CACHE/NAME/src, its submodules in place, extracted once."""
    dest = cache / project.name / "src"
    stamp = {"commit": project.commit, "paths": list(project.paths), "submodules": [list(s) for s in project.submodules]}
    stamp_file = cache / project.name / STAMP
    if dest.is_dir() and stamp_file.exists():
        saved = json.loads(stamp_file.read_text())
        if {k: saved.get(k, []) for k in stamp} == stamp:
            return dest
    gd = git_dir(mirrors, project.repo)
    if dest.exists():
        shutil.rmtree(dest)
    missing = _archive(gd, project.commit, project.paths, dest)
    for path, repo, commit in project.submodules:
        target = dest / path
        if target.exists():
            shutil.rmtree(target)  # the empty folder git leaves for a submodule
        missing += _archive(git_dir(mirrors, repo), commit, (), target)
    stamp["missing_blobs"] = missing
    stamp_file.write_text(json.dumps(stamp))
    return dest


def missing_blobs(project: Project, cache: Path) -> int:
    stamp_file = cache / project.name / STAMP
    return json.loads(stamp_file.read_text()).get("missing_blobs", 0) if stamp_file.exists() else 0
