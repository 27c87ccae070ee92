"""What happens to the output when the world moves under a run (issue 28, items 3, 5, 6, 9): a file that vanishes
or changes mid-run is a finding (INP012), never a crash or a false "copied"; an empty DST is filled without being
renamed or removed (so a mount point works); an error writing the output is one line naming the path and the
system's reason, exit status 3, and nothing is left half-written. The disks are real: small tmpfs mounts (root)."""
from __future__ import annotations

import json
import os
import subprocess
from contextlib import contextmanager
from pathlib import Path

import pytest

from migrate import api
from migrate.stages import scan
from tests.helpers import cli, git, git_repo, read_tree, write_tree

CALL = "#include <cuda_runtime.h>\nvoid f(float** p) { cudaMalloc(p, 4); }\n"
MIGRATED = CALL.replace("cuda_runtime.h", "hip/hip_runtime.h").replace("cudaMalloc", "hipMalloc")


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.rglob("*") if p.name.endswith(".tmp") or ".partial-" in p.name)


@contextmanager
def tmpfs(where: Path, size: str, read_only: bool = False):
    """A real tmpfs of `size` mounted at `where` for the block (skips where mounting is not allowed)."""
    where.mkdir(parents=True, exist_ok=True)
    options = f"size={size}" + (",ro" if read_only else "")
    if subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(where)], capture_output=True).returncode:
        pytest.skip("cannot mount a tmpfs here (needs root)")
    try:
        yield where
    finally:
        subprocess.run(["umount", str(where)], check=True)


def _findings(doc: dict, code: str) -> list[tuple[str, str]]:
    return [(f["path"], f["message"]) for f in doc["findings"] if f["code"] == code]


# --- item 3: a file that vanishes while the run is in progress ---------------------------------------------------

def test_files_deleted_before_the_write_are_findings_not_copies(tmp_path, monkeypatch):
    src = write_tree(tmp_path / "src", {"k.cu": CALL, "keep.cu": CALL, "README.md": "read me\n",
                                        "docs/notes.txt": "n\n", "bad.py": "x = (\n"})
    (src / "blob.cu").write_bytes(b"\0\0binary")  # skipped (INP002), then deleted: a fuzz find
    os.symlink("README.md", src / "link.md")
    original = api.analyse

    def then_deleted(*args, **kw):
        done = original(*args, **kw)
        for rel in ("k.cu", "README.md", "link.md", "docs/notes.txt", "bad.py", "blob.cu"):
            os.unlink(src / rel)
        os.rmdir(src / "docs")
        return done

    monkeypatch.setattr(api, "analyse", then_deleted)
    result = cli("run", src, "--out", tmp_path / "out", "--output-format", "json")
    assert result.exit_code == 1, result.output
    doc = json.loads(result.stdout)
    gone = "vanished while the run was in progress (it was deleted or moved after the tree was listed): left out " \
           "of the output; run again to migrate it"
    assert _findings(doc, "INP012") == [("README.md", gone), ("bad.py", gone), ("blob.cu", gone),
                                        ("docs/notes.txt", gone), ("k.cu", gone), ("link.md", gone)]
    assert {f["path"]: f["status"] for f in doc["files"]} == {"README.md": "skipped", "docs/notes.txt": "skipped",
                                                             "k.cu": "skipped", "keep.cu": "migrated",
                                                             "link.md": "skipped", "bad.py": "skipped",
                                                             "blob.cu": "skipped"}
    assert sorted(os.listdir(tmp_path / "out")) == [".hipmigrate", "docs", "keep.cu"]
    assert (tmp_path / "out" / "keep.cu").read_text() == MIGRATED
    state = json.loads((tmp_path / "out" / ".hipmigrate" / "run.json").read_text())
    assert sorted(f["path"] for f in state["findings"] if f["code"] == "INP012") == [
        "README.md", "bad.py", "blob.cu", "docs/notes.txt", "k.cu", "link.md"]


def test_files_deleted_before_they_are_read_are_findings(tmp_path, monkeypatch):
    src = write_tree(tmp_path / "src", {"k.cu": CALL, "keep.cu": CALL, "a.txt": "a\n"})
    os.symlink("a.txt", src / "link.txt")
    original = scan.collect

    def listed_then_deleted(*args, **kw):
        inventory = original(*args, **kw)
        os.unlink(src / "k.cu")
        os.unlink(src / "link.txt")
        return inventory

    monkeypatch.setattr(scan, "collect", listed_then_deleted)
    result = cli("run", src, "--out", tmp_path / "out", "--output-format", "json", "--jobs", "1")
    status, doc = result.exit_code, json.loads(result.stdout)
    assert status == 1
    assert [path for path, _ in _findings(doc, "INP012")] == ["k.cu", "link.txt"]
    assert sorted(os.listdir(tmp_path / "out")) == [".hipmigrate", "a.txt", "keep.cu"]


@pytest.mark.git
def test_in_place_does_not_replace_a_file_edited_since_it_was_read(tmp_path, monkeypatch):
    repo = git_repo(tmp_path / "repo", {"a.cu": CALL, "b.cu": CALL})
    original = api.analyse

    def edited_meanwhile(*args, **kw):
        done = original(*args, **kw)
        (repo / "b.cu").write_text("// the user's edit\n" + CALL)
        return done

    monkeypatch.setattr(api, "analyse", edited_meanwhile)
    result = cli("run", repo, "--in-place", "--output-format", "json")
    assert result.exit_code == 1
    assert _findings(json.loads(result.stdout), "INP012") == [(
        "b.cu", "changed since it was read (edited while the run was in progress): not replaced; run again to "
                "migrate it")]
    assert (repo / "a.cu").read_text() == MIGRATED
    assert (repo / "b.cu").read_text() == "// the user's edit\n" + CALL


# --- item 5: an empty DST is filled, never renamed or removed -----------------------------------------------------

def test_an_empty_dst_is_filled_in_place_and_keeps_its_inode_and_mode(tmp_path):
    src = write_tree(tmp_path / "src", {"k.cu": CALL, "sub/n.txt": "n\n"})
    dst = tmp_path / "dst"
    dst.mkdir()
    dst.chmod(0o751)
    before = dst.stat()
    assert cli("run", src, "--out", dst).exit_code == 0
    after = dst.stat()
    assert (after.st_ino, after.st_mode) == (before.st_ino, before.st_mode)
    assert sorted(read_tree(dst)) == [".hipmigrate/run.json", "k.cu", "sub/n.txt"]
    assert _leftovers(tmp_path) == []


def test_a_dst_holding_only_a_killed_run_s_staging_says_so(tmp_path):
    src = write_tree(tmp_path / "src", {"k.cu": CALL})
    (tmp_path / "dst" / ".hipmigrate.partial-x1y2").mkdir(parents=True)
    result = cli("run", src, "--out", tmp_path / "dst")
    assert (result.exit_code, result.stderr.splitlines()[-1]) == (2, (
        f"hipmigrate: error: {tmp_path / 'dst'}: holds only .hipmigrate.partial-* folders, left by a run that was "
        "killed before it could remove them (or being written by a run now): remove them once no hipmigrate run is "
        "writing there, then run again"))


def test_an_empty_dst_that_is_a_mount_point_is_accepted(tmp_path):
    src = write_tree(tmp_path / "src", {"k.cu": CALL})
    with tmpfs(tmp_path / "mnt", "1m") as dst:
        result = cli("run", src, "--out", dst)
        assert result.exit_code == 0, result.output
        assert (dst / "k.cu").read_text() == MIGRATED and _leftovers(dst) == []


# --- item 6: errors writing the output -----------------------------------------------------------------------------

def test_a_full_disk_is_one_line_exit_3_and_leaves_nothing(tmp_path):
    src = write_tree(tmp_path / "src", {"k.cu": CALL, "big.bin": b"\x01" * 200_000})
    with tmpfs(tmp_path / "full", "64k") as full:
        result = cli("run", src, "--out", full / "dst")
        assert result.exit_code == 3
        assert result.stderr.splitlines()[-1] == (
            f"hipmigrate: error: cannot write {full / 'dst' / 'big.bin'}: No space left on device (ENOSPC); "
            f"{full / 'dst'} was not created (the staged copy was removed)")
        assert "Traceback" not in result.stderr and os.listdir(full) == []
        (full / "empty").mkdir()
        result = cli("run", src, "--out", full / "empty")
        assert result.exit_code == 3 and result.stderr.splitlines()[-1].endswith(
            f"No space left on device (ENOSPC); {full / 'empty'} was left as it was (the staged copy was removed)")
        assert os.listdir(full / "empty") == []


def test_a_read_only_file_system_is_one_line_exit_3(tmp_path):
    src = write_tree(tmp_path / "src", {"k.cu": CALL})
    with tmpfs(tmp_path / "ro", "64k", read_only=True) as ro:
        result = cli("run", src, "--out", ro / "dst")
        assert (result.exit_code, result.stderr.splitlines()[-1]) == (3, (
            f"hipmigrate: error: cannot write {ro / 'dst'}: Read-only file system (EROFS); {ro / 'dst'} was not "
            "created (the staged copy was removed)"))
        result = cli("run", src / "k.cu", "--out", ro / "k.cu")
        assert (result.exit_code, result.stderr.splitlines()[-1]) == (3, (
            f"hipmigrate: error: cannot write {ro / 'k.cu'}: Read-only file system (EROFS); {ro / 'k.cu'} was left "
            "as it was"))


def test_a_folder_that_refuses_writes_is_one_line_exit_3(tmp_path):
    """As root no permission bit refuses a write; the immutable attribute does (EPERM), as EACCES would for a user."""
    src = write_tree(tmp_path / "src", {"k.cu": CALL})
    dst = tmp_path / "dst"
    dst.mkdir()
    if subprocess.run(["chattr", "+i", str(dst)], capture_output=True).returncode:
        pytest.skip("chattr +i is not available on this file system")
    try:
        result = cli("run", src, "--out", dst)
    finally:
        subprocess.run(["chattr", "-i", str(dst)], check=True)
    assert (result.exit_code, result.stderr.splitlines()[-1]) == (3, (
        f"hipmigrate: error: cannot write {dst}: Operation not permitted (EPERM); {dst} was left as it was (the "
        "staged copy was removed)"))
    assert os.listdir(dst) == []


@pytest.mark.git
def test_in_place_on_a_full_disk_changes_nothing(tmp_path):
    with tmpfs(tmp_path / "full", "512k") as full:
        repo = git_repo(full / "repo", {"k.cu": CALL})
        with open(full / "filler", "wb", buffering=0) as fh:
            try:
                while True:
                    fh.write(b"\0" * 4096)
                    fh.flush()
            except OSError:
                pass
        result = cli("run", repo, "--in-place")
        assert (result.exit_code, result.stderr.splitlines()[-1]) == (3, (
            f"hipmigrate: error: cannot write {repo / '.git' / 'hipmigrate-in-place.json'}: No space left on device "
            "(ENOSPC); nothing was migrated"))
        assert (repo / "k.cu").read_text() == CALL
        os.unlink(full / "filler")  # git status itself needs room for its index lock
        assert git(repo, "status", "--porcelain") == ""


def test_a_dst_below_a_file_is_a_usage_error(tmp_path):
    src = write_tree(tmp_path / "src", {"k.cu": CALL})
    (tmp_path / "file").write_text("x")
    result = cli("run", src, "--out", tmp_path / "file" / "sub" / "dst")
    assert (result.exit_code, result.stderr.splitlines()[-1]) == (2, (
        f"hipmigrate: error: {tmp_path / 'file' / 'sub' / 'dst'}: {tmp_path / 'file'} is a file, not a folder; give "
        "a DST whose parent is a folder"))
    result = cli("run", src / "k.cu", "--out", tmp_path / "file" / "k.cu")
    assert (result.exit_code, result.stderr.splitlines()[-1]) == (2, (
        f"hipmigrate: error: {tmp_path / 'file' / 'k.cu'}: {tmp_path / 'file'} is a file, not a folder; give a file "
        "whose parent is a folder"))


# --- item 9: small ones ----------------------------------------------------------------------------------------------

def test_a_device_to_stdout_is_not_a_regular_file():
    result = cli("run", "/dev/zero", "--out", "-")
    assert (result.exit_code, result.stderr) == (
        2, "hipmigrate: error: /dev/zero: not a regular file (a device, FIFO or socket); give a source file\n")


@pytest.mark.git
def test_in_place_links_out_of_the_tree_name_no_copy(tmp_path):
    (tmp_path / "outside.cu").write_text(CALL)
    repo = git_repo(tmp_path / "repo", {"a.cu": CALL})
    os.symlink(tmp_path / "outside.cu", repo / "out.cu")
    os.symlink(tmp_path / "nowhere.cu", repo / "dangling.cu")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "links")
    result = cli("run", repo, "--in-place", "--output-format", "json")
    doc = json.loads(result.stdout)
    assert _findings(doc, "INP009") == [("out.cu", f"symbolic link to '{tmp_path / 'outside.cu'}', outside the source "
                                                   "tree: what it points to is not migrated; copy the file into the "
                                                   "tree to migrate it")]
    assert _findings(doc, "INP006") == [("dangling.cu", f"symbolic link to '{tmp_path / 'nowhere.cu'}' that does not "
                                                        "resolve (a loop or a missing file): left as it is, not "
                                                        "migrated; fix or remove the link")]


def test_statistics_names_the_codes_no_rule_class_carries(tmp_path):
    src = write_tree(tmp_path / "src", {"k.cu": CALL, "bin.cu": b"a\0b"})
    lines = cli("scan", src, "--statistics").stdout.splitlines()
    assert "     1  INP002  binary content in a source file" in lines


# --- what a command prints: standard output and -o FILE are output too -------------------------------------------

def _hipmigrate(*args, stdout) -> subprocess.CompletedProcess:
    """hipmigrate in a process of its own, its standard output `stdout` (a real /dev/full or pipe)."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[1])}
    return subprocess.run(["python", "-m", "migrate", *map(str, args)], stdout=stdout, stderr=subprocess.PIPE,
                          text=True, env=env)


@pytest.mark.parametrize("command", [("scan",), ("diff",), ("check",), ("run", "k.cu", "--out", "-")])
def test_a_full_standard_output_is_one_line_exit_3(tmp_path, command):
    src = write_tree(tmp_path / "src", {"k.cu": CALL})
    args = [src / a if a == "k.cu" else a for a in command] if len(command) > 1 else [*command, src]
    with open("/dev/full", "w") as full:
        done = _hipmigrate(*args, stdout=full)
    assert (done.returncode, done.stderr.splitlines()[-1]) == (3, (
        "hipmigrate: error: cannot write standard output: No space left on device (ENOSPC); what was printed is "
        "incomplete"))
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr


@pytest.mark.parametrize("command", [("report", "DST", "--output-format", "html", "-o"),
                                     ("check", "SRC", "--write-baseline"), ("check", "SRC", "-o")])
def test_a_report_into_a_full_or_read_only_disk_is_one_line_exit_3(tmp_path, command):
    src = write_tree(tmp_path / "src", {"k.cu": CALL})
    assert cli("run", src, "--out", tmp_path / "dst").exit_code == 0
    args = [{"DST": tmp_path / "dst", "SRC": src}.get(a, a) for a in command]
    with tmpfs(tmp_path / "full", "64k") as full:
        (full / "fill").write_bytes(b"\x01" * 60_000)
        (full / "out.txt").write_text("old\n")
        result = cli(*args, full / "out.txt")
        assert (result.exit_code, result.stderr.splitlines()[-1]) == (3, (
            f"hipmigrate: error: cannot write {full / 'out.txt'}: No space left on device (ENOSPC); "
            f"{full / 'out.txt'} was left as it was"))
        assert (full / "out.txt").read_text() == "old\n" and _leftovers(full) == []
    with tmpfs(tmp_path / "ro", "64k", read_only=True) as ro:
        result = cli(*args, ro / "out.txt")
        assert (result.exit_code, result.stderr.splitlines()[-1]) == (3, (
            f"hipmigrate: error: cannot write {ro / 'out.txt'}: Read-only file system (EROFS); {ro / 'out.txt'} was "
            "left as it was"))
