"""Nothing is lost without a word: unreadable folders, files not migrated (binary, over the size limit) written out
all the same, an existing output file or the source itself never overwritten silently, links out of the tree kept
working; modes kept; `report` on a broken run.json exits 2; doctor checks hipify-perl."""
import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from migrate.doctor import checks
from migrate.doctor import probe as keys
from migrate.doctor.model import Check, Status
from migrate.doctor.probe import Output
from migrate.toolchain import TOOLCHAIN
from tests.helpers import cli, cli_json, git_repo, read_tree, write_tree
from tests.test_doctor import amd_machine

ROOT = Path(__file__).resolve().parent.parent
CALL = "void f(float** p) { cudaMalloc(p, 4); }\n"
MIGRATED = "#include <hip/hip_runtime.h>\nvoid f(float** p) { hipMalloc(p, 4); }\n"
BLOB = b"\x7fELF\x02\x01\x01\x00\x00cudaMalloc\x00\xff"
UNREADABLE = ("sub:1:1: INP004 cannot read this folder (permission denied): nothing in it was migrated, checked or "
              "copied; fix its permissions and run again")


@pytest.fixture
def umask_022():
    before = os.umask(0o022)
    yield
    os.umask(before)


def _as_user(*args: str) -> subprocess.CompletedProcess:
    """hipmigrate in a process without root's power to read everything (as the test suite runs as root in CI)."""
    cmd = [sys.executable, "-m", "migrate", *args]
    if os.geteuid() == 0:
        assert shutil.which("setpriv"), "setpriv (util-linux) is needed to test unreadable folders as root"
        cmd = ["setpriv", "--bounding-set=-dac_override,-dac_read_search", *cmd]
    return subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})


@pytest.mark.git
@pytest.mark.parametrize("in_git", [False, True])
def test_an_unreadable_folder_is_reported_by_run_and_scan(tmp_path, in_git):
    files = {"ok.cu": CALL, "sub/a.cu": CALL}
    src = git_repo(tmp_path / "src", files) if in_git else write_tree(tmp_path / "src", files)
    (src / "sub").chmod(0)
    try:
        ran = _as_user("run", str(src), "--out", str(tmp_path / "out"), "--hip-version", "6.2", "--no-progress")
        scanned = _as_user("scan", str(src), "--hip-version", "6.2")
    finally:
        (src / "sub").chmod(0o755)
    assert ran.returncode == 1, ran.stderr
    assert UNREADABLE in ran.stdout
    assert sorted(p for p in read_tree(tmp_path / "out") if not p.startswith(".")) == ["ok.cu"]
    assert (tmp_path / "out" / "ok.cu").read_text() == MIGRATED
    assert scanned.returncode == 1 and UNREADABLE in scanned.stdout


@pytest.mark.parametrize("name,data,limit,code", [
    ("blob.cu", BLOB, [], "INP002"),
    ("big.cu", CALL.encode() * 10, ["--max-file-size", "100", "--over-size", "copy"], "INP005"),
])
def test_a_file_not_migrated_is_still_written_to_out_and_stdout(tmp_path, name, data, limit, code):
    src = write_tree(tmp_path, {name: data}) / name
    result = cli("run", src, "--out", "-", "--hip-version", "6.2", *limit)
    assert result.exit_code == 1 and f"{name}:1:1: {code} " in result.stderr
    assert result.stdout_bytes == data
    result = cli("run", src, "--out", tmp_path / "copy.cu", "--hip-version", "6.2", *limit)
    assert result.exit_code == 1
    assert (tmp_path / "copy.cu").read_bytes() == data


def test_an_existing_output_file_is_replaced_only_with_force(tmp_path):
    src = write_tree(tmp_path, {"k.cu": CALL, "old.cu": "old\n"}) / "k.cu"
    result = cli("run", src, "--out", tmp_path / "old.cu", "--hip-version", "6.2")
    assert result.exit_code == 2
    assert result.stderr == (f"hipmigrate: error: {tmp_path / 'old.cu'}: exists; give a new file with --out, or "
                             "--force to replace it\n")
    assert (tmp_path / "old.cu").read_text() == "old\n"
    assert cli("run", src, "--out", tmp_path / "old.cu", "--force", "--hip-version", "6.2").exit_code == 0
    assert (tmp_path / "old.cu").read_text() == MIGRATED


@pytest.mark.parametrize("force", [[], ["--force"]])
def test_the_source_file_is_never_its_own_output(tmp_path, force):
    src = write_tree(tmp_path, {"k.cu": CALL}) / "k.cu"
    result = cli("run", src, "--out", tmp_path / "." / "k.cu", "--hip-version", "6.2", *force)
    assert result.exit_code == 2
    assert result.stderr == (f"hipmigrate: error: {tmp_path / 'k.cu'}: is the source file itself; give another file "
                             "with --out, or migrate it where it stands with --in-place (in a clean git work tree, so "
                             "that the change can be reviewed and undone)\n")
    assert src.read_text() == CALL


@pytest.mark.git
def test_one_file_migrates_in_place_in_a_clean_work_tree(tmp_path):
    repo = git_repo(tmp_path / "repo", {"k.cu": CALL, "other.cu": CALL})
    assert cli("run", repo / "k.cu", "--in-place", "--hip-version", "6.2").exit_code == 0
    assert (repo / "k.cu").read_text() == MIGRATED and (repo / "other.cu").read_text() == CALL


def test_links_out_of_the_tree_keep_working_and_are_reported(tmp_path):
    (tmp_path / "shared").mkdir()
    (tmp_path / "shared" / "common.cuh").write_text(CALL)
    src = write_tree(tmp_path / "src", {"ok.cu": CALL, "inc/own.cuh": CALL})
    os.symlink("../../shared/common.cuh", src / "inc" / "common.cuh")
    os.symlink(str(src / "inc" / "own.cuh"), src / "own_by_path.cuh")  # absolute, into the tree
    status, doc = cli_json("run", src, "--out", tmp_path / "out" / "dst", "--hip-version", "6.2")
    assert status == 1
    assert [(f["path"], f["code"], f["message"]) for f in doc["findings"] if f["code"].startswith("INP")] == [
        ("inc/common.cuh", "INP009", "symbolic link to '../../shared/common.cuh', outside the source tree: what it "
                                     f"points to is not migrated, and the copy links to {tmp_path}/shared/common.cuh; "
                                     "copy the file into the tree to migrate it")]
    out = tmp_path / "out" / "dst"
    assert os.readlink(out / "inc" / "common.cuh") == str(tmp_path / "shared" / "common.cuh")
    assert (out / "inc" / "common.cuh").read_text() == CALL
    assert os.readlink(out / "own_by_path.cuh") == "inc/own.cuh"
    assert (out / "own_by_path.cuh").read_text() == MIGRATED


def test_output_modes_follow_the_source_and_the_umask(tmp_path, umask_022):
    src = write_tree(tmp_path / "src", {"k.cu": CALL, "tools/run.sh": "#!/bin/sh\nnvidia-smi\n", "priv/p.cu": CALL})
    (src / "tools" / "run.sh").chmod(0o754)
    (src / "priv").chmod(0o750)
    (src / "k.cu").chmod(0o640)
    assert cli("run", src, "--out", tmp_path / "new", "--hip-version", "6.2").exit_code == 0
    mode = lambda p: stat.S_IMODE(p.stat().st_mode)  # noqa: E731
    new = tmp_path / "new"
    assert [mode(new), mode(new / "tools" / "run.sh"), mode(new / "priv"), mode(new / "k.cu"),
            mode(new / ".hipmigrate"), mode(new / ".hipmigrate" / "run.json")] == [
        0o755, 0o754, 0o750, 0o640, 0o755, 0o644]
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o2775)
    assert cli("run", src, "--out", shared, "--hip-version", "6.2").exit_code == 0
    assert mode(shared) == 0o2775
    assert cli("run", src / "tools" / "run.sh", "--out", tmp_path / "run.sh", "--hip-version", "6.2").exit_code == 0
    assert mode(tmp_path / "run.sh") == 0o754
    (src / "k.cu").chmod(0o644)
    assert cli("run", src / "k.cu", "--out", tmp_path / "one.cu", "--hip-version", "6.2").exit_code == 0
    assert mode(tmp_path / "one.cu") == 0o644


@pytest.mark.parametrize("content", ['{"format": "hipmigrate-run", "vers', "garbage\x00"])
def test_report_on_a_broken_run_json_exits_2(tmp_path, content):
    src = write_tree(tmp_path / "src", {"k.cu": CALL})
    assert cli("run", src, "--out", tmp_path / "dst", "--hip-version", "6.2").exit_code == 0
    (tmp_path / "dst" / ".hipmigrate" / "run.json").write_text(content)
    result = cli("report", tmp_path / "dst")
    assert result.exit_code == 2
    assert result.stderr.startswith("hipmigrate: error: .hipmigrate/run.json: cannot be read: ")


def test_doctor_checks_hipify_perl():
    found = amd_machine(hipify_perl="/opt/x/hipify-perl",
                        outputs={keys.HIPIFY_PERL_VERSION: Output(0, "", "HIP version 6.0.0\n")})
    assert checks.check_hipify_perl(found, ()) == Check(
        "hipify-perl", Status.OK, "/opt/x/hipify-perl, HIP 6.0.0 (for --engine hipify-perl)")
    broken = amd_machine(hipify_perl="/opt/x/hipify-perl",
                         outputs={keys.HIPIFY_PERL_VERSION: Output(None, "", "No such file or directory: 'perl'")})
    assert checks.check_hipify_perl(broken, ()) == Check(
        "hipify-perl", Status.WARNING, "/opt/x/hipify-perl does not run with perl: No such file or directory: 'perl'",
        "install perl (apt-get install perl)")
    assert checks.check_hipify_perl(amd_machine(env={"HIPIFY_PERL": "/nope"}), ()) == Check(
        "hipify-perl", Status.WARNING, "HIPIFY_PERL=/nope is not a file, and nothing else is searched while it is "
        "set: --engine hipify-perl fails", "point HIPIFY_PERL at hipify-perl, or unset it")
    missing = checks.check_hipify_perl(amd_machine(), ())
    assert missing == Check("hipify-perl", Status.INFO, "not found (looked on PATH, in $ROCM_PATH/bin and in "
                            f"{TOOLCHAIN}/bin): --engine hipify-perl is unavailable; the built-in engine needs nothing",
                            "sudo scripts/install-toolchain installs it (or ROCm's hipify-perl package)")
    assert checks.run(amd_machine(), ("gfx90a",)).summary.can_build  # information only: building is not blocked


@pytest.mark.hipify_perl
def test_real_doctor_names_the_hipify_perl_it_would_run(hipcc):
    from migrate.cpp import hipify_perl
    from tests.conftest import need_tool

    need_tool("hipify-perl")
    result = cli("doctor", "--output-format", "json")
    check = next(c for c in json.loads(result.stdout)["checks"] if c["name"] == "hipify-perl")
    assert (check["status"], check["detail"]) == ("ok", f"{hipify_perl.find()}, HIP 6.0.0 (for --engine hipify-perl)")
