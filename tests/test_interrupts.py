"""SIGINT and SIGTERM, handled alike: the file in hand is finished or rolled back, no temporary file or staging
folder is left, a message says what was left behind, the exit status is 128 + the signal (130, 143), and an
interrupted --in-place run resumes when run again."""
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from migrate.stages import in_place, write
from tests.helpers import cli, git, git_repo, read_tree, write_tree

ROOT = Path(__file__).resolve().parent.parent
CALL = "void f{i}(float** p) {{ cudaMalloc(p, {i}); }}\n"
SIGNALS = [(signal.SIGINT, 130, "SIGINT"), (signal.SIGTERM, 143, "SIGTERM")]


def _sources(n: int) -> dict[str, str]:
    return {f"k{i}.cu": CALL.format(i=i) for i in range(n)}


def _migrated(i: int) -> str:
    return "#include <hip/hip_runtime.h>\n" + CALL.format(i=i).replace("cudaMalloc", "hipMalloc")


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.rglob("*") if p.name.endswith(".tmp") or ".partial-" in p.name)


@pytest.mark.parametrize("signum,status,name", SIGNALS)
def test_an_interrupt_while_the_tree_is_written_leaves_no_output_and_no_staging(tmp_path, monkeypatch, signum,
                                                                                status, name):
    src = write_tree(tmp_path / "src", _sources(6))
    calls = []
    original = write._write_one

    def interrupted_at_the_third(*args):
        calls.append(1)
        if len(calls) == 3:
            os.kill(os.getpid(), signum)
        return original(*args)

    monkeypatch.setattr(write, "_write_one", interrupted_at_the_third)
    result = cli("run", src, "--out", tmp_path / "dst", "--hip-version", "6.2", "--jobs", "1")
    assert result.exit_code == status
    assert result.stderr == (f"hipmigrate: interrupted by {name}: {tmp_path / 'dst'} was not created (the staged copy "
                             "was removed)\n")
    assert not (tmp_path / "dst").exists() and _leftovers(tmp_path) == []
    (tmp_path / "empty").mkdir()
    calls.clear()
    result = cli("run", src, "--out", tmp_path / "empty", "--hip-version", "6.2", "--jobs", "1")
    assert result.exit_code == status and "empty was left as it was (the staged copy was removed)" in result.stderr
    assert list((tmp_path / "empty").iterdir()) == [] and _leftovers(tmp_path) == []


@pytest.mark.git
@pytest.mark.parametrize("signum,status,name", SIGNALS)
def test_an_interrupted_in_place_run_resumes(tmp_path, monkeypatch, signum, status, name):
    repo = git_repo(tmp_path / "repo", _sources(4))
    original = in_place.atomic_write
    written = []

    def interrupted_after_two(path, data, *args, **kw):
        original(path, data, *args, **kw)
        if path.suffix == ".cu":
            written.append(path.name)
            if len(written) == 2:
                os.kill(os.getpid(), signum)

    monkeypatch.setattr(in_place, "atomic_write", interrupted_after_two)
    result = cli("run", repo, "--in-place", "--hip-version", "6.2", "--jobs", "1")
    assert result.exit_code == status
    assert result.stderr == (f"hipmigrate: interrupted by {name}: 2 of 4 files were migrated in place, each whole; run "
                             "the same command again to finish (it resumes), or `git checkout -- .` to undo\n")
    assert git(repo, "status", "--porcelain") == " M k0.cu\n M k1.cu\n"  # no temporary file
    monkeypatch.setattr(in_place, "atomic_write", original)
    (repo / "k3.cu").write_text("// edited meanwhile\n" + CALL.format(i=3))
    refused = cli("run", repo, "--in-place", "--hip-version", "6.2")
    assert refused.exit_code == 2 and "uncommitted changes (for example k3.cu)" in refused.stderr
    assert "an interrupted --in-place run left other files migrated" in refused.stderr
    git(repo, "checkout", "--", "k3.cu")
    resumed = cli("run", repo, "--in-place", "--hip-version", "6.2", "--jobs", "1")
    assert resumed.exit_code == 0
    assert {k: v.decode() for k, v in read_tree(repo).items() if not k.startswith(".git")} == {
        f"k{i}.cu": _migrated(i) for i in range(4)}
    assert not (repo / ".git" / in_place.JOURNAL).exists()
    again = cli("run", repo, "--in-place", "--hip-version", "6.2")
    assert again.exit_code == 2 and "uncommitted changes" in again.stderr  # done: the tree is the user's to commit


def _descendants(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


@pytest.mark.parametrize("signum,status,name", SIGNALS)
def test_a_real_interrupt_of_a_parallel_run_stops_its_workers_and_cleans_up(tmp_path, signum, status, name):
    body = "".join(f"__global__ void k{j}(float* a) {{ a[threadIdx.x] = {j}; cudaFree(a); }}\n" for j in range(400))
    src = write_tree(tmp_path / "src", {f"d{i // 20}/k{i}.cu": body for i in range(120)})
    # a session of its own: a terminal's Ctrl-C reaches the whole foreground process group, workers included
    proc = subprocess.Popen([sys.executable, "-m", "migrate", "run", str(src), "--out", str(tmp_path / "dst"),
                             "--jobs", "2", "--no-progress"], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    line = proc.stderr.readline()  # "hipmigrate: migrating for HIP ...": the command has started
    assert line.startswith("hipmigrate: "), line
    deadline = time.monotonic() + 60
    while len(_descendants(proc.pid)) < 2 and time.monotonic() < deadline:  # the workers are at work
        time.sleep(0.05)
    workers = _descendants(proc.pid)
    os.killpg(proc.pid, signum) if signum == signal.SIGINT else proc.send_signal(signum)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == status, err
    assert err.splitlines()[-1] == f"hipmigrate: interrupted by {name}: nothing was written"
    assert "Traceback" not in err
    time.sleep(0.5)
    assert [pid for pid in workers if Path(f"/proc/{pid}").exists()] == []
    assert not (tmp_path / "dst").exists() and _leftovers(tmp_path) == []


@pytest.mark.parametrize("signum,status,name", SIGNALS)
def test_a_signal_whose_exception_is_swallowed_is_honoured_at_the_end(signum, status, name):
    """A signal that arrives while Python runs a finalizer (or logging's fork hook, as a CI run met it) raises inside
    code whose exceptions are only printed ("Exception ignored in ..."): the block goes on, and the interrupt is
    raised when it ends instead of being lost (the run exited 0)."""
    from migrate import interrupt

    class SignalsOnCollection:
        def __del__(self):
            os.kill(os.getpid(), signum)
            for _ in range(10_000):  # the handler runs here, inside the finalizer
                pass

    went_on = []
    with pytest.raises(interrupt.Interrupted) as raised:
        with interrupt.as_exception():
            SignalsOnCollection()
            went_on.append(True)
    assert went_on == [True] and (raised.value.name, raised.value.status) == (name, status)


def _kill(signum: int):
    def stop(*args, **kw):
        os.kill(os.getpid(), signum)
        raise AssertionError("the signal should have stopped the run")  # pragma: no cover
    return stop


@pytest.mark.git
def test_an_interrupt_just_after_the_last_replacement_resumes(tmp_path, monkeypatch):
    """The last file is replaced but the resume record is still there: the rerun finishes (nothing to change)."""
    repo = git_repo(tmp_path / "repo", _sources(3))
    original = in_place.atomic_write
    written = []

    def after_the_last(path, data, *args, **kw):
        original(path, data, *args, **kw)
        if path.suffix == ".cu":
            written.append(path.name)
            if len(written) == 3:
                os.kill(os.getpid(), signal.SIGINT)

    monkeypatch.setattr(in_place, "atomic_write", after_the_last)
    result = cli("run", repo, "--in-place", "--hip-version", "6.2", "--jobs", "1")
    assert (result.exit_code, result.stderr) == (130, (
        "hipmigrate: interrupted by SIGINT: 3 of 3 files were migrated in place, each whole; run the same command "
        "again to finish (it resumes), or `git checkout -- .` to undo\n"))
    monkeypatch.setattr(in_place, "atomic_write", original)
    assert cli("run", repo, "--in-place", "--hip-version", "6.2").exit_code == 0
    assert not (repo / ".git" / in_place.JOURNAL).exists()


@pytest.mark.git
@pytest.mark.parametrize("where", ["the report", "the printing"])
def test_an_interrupt_after_every_file_is_replaced_says_the_run_had_finished(tmp_path, monkeypatch, where):
    from migrate import api, cli as cli_module

    repo = git_repo(tmp_path / "repo", _sources(3))
    if where == "the report":
        monkeypatch.setattr(api.assemble, "migration", _kill(signal.SIGINT))
    else:
        monkeypatch.setattr(cli_module, "finish", _kill(signal.SIGINT))
    result = cli("run", repo, "--in-place", "--hip-version", "6.2", "--jobs", "1")
    assert (result.exit_code, result.stderr) == (130, (
        "hipmigrate: interrupted by SIGINT: the run had finished: 3 files were migrated in place; review the change "
        "with `git diff`, undo it with `git checkout -- .`\n"))
    assert not (repo / ".git" / in_place.JOURNAL).exists()
    assert {k: v.decode() for k, v in read_tree(repo).items() if not k.startswith(".git")} == {
        f"k{i}.cu": _migrated(i) for i in range(3)}


def test_an_interrupt_while_printing_says_the_output_was_written(tmp_path, monkeypatch):
    from migrate import cli as cli_module

    src = write_tree(tmp_path / "src", _sources(2))
    monkeypatch.setattr(cli_module, "finish", _kill(signal.SIGTERM))
    result = cli("run", src, "--out", tmp_path / "dst", "--hip-version", "6.2", "--jobs", "1")
    assert (result.exit_code, result.stderr) == (
        143, f"hipmigrate: interrupted by SIGTERM: {tmp_path / 'dst'} was written whole\n")
    assert sorted(read_tree(tmp_path / "dst")) == [".hipmigrate/run.json", "k0.cu", "k1.cu"]


@pytest.mark.git
def test_an_interrupt_once_the_resume_record_is_written_migrated_nothing(tmp_path, monkeypatch):
    repo = git_repo(tmp_path / "repo", _sources(2))
    original = in_place.atomic_write

    def after_the_record(path, data, *args, **kw):
        original(path, data, *args, **kw)
        if path.name == in_place.JOURNAL:
            os.kill(os.getpid(), signal.SIGINT)

    monkeypatch.setattr(in_place, "atomic_write", after_the_record)
    result = cli("run", repo, "--in-place", "--hip-version", "6.2", "--jobs", "1")
    assert (result.exit_code, result.stderr) == (130, (
        "hipmigrate: interrupted by SIGINT: 0 of 2 files were migrated in place; running the same command again "
        "migrates them\n"))
    assert git(repo, "status", "--porcelain") == ""
    monkeypatch.setattr(in_place, "atomic_write", original)
    assert cli("run", repo, "--in-place", "--hip-version", "6.2").exit_code == 0
    assert not (repo / ".git" / in_place.JOURNAL).exists()
