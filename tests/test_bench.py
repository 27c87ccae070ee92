"""`hipmigrate bench`: declarations, real benchmark processes (small scripts written here), the results file,
the launcher prefix, failures and time-outs recorded, the fingerprint, and the samples' declarations."""
from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from migrate.bench import config, fingerprint, results
from migrate.bench.config import BenchError
from migrate.stages import bench as stage
from migrate.stages import verify
from tests.helpers import cli, git_repo, write_tree

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ("saxpy_streams", "block_reduce", "cublas_sgemm", "curand_pi", "multifile_constant", "ballot_compaction")
PY = shlex.quote(sys.executable)

# Prints the next value of values.txt (one a line) as "time=V ms", keeping its place in count.txt.
EMIT = """import pathlib, sys
here = pathlib.Path(__file__).parent
values = (here / "values.txt").read_text().split()
count = here / "count.txt"
n = int(count.read_text()) if count.exists() else 0
count.write_text(str(n + 1))
print("warming up")
print("time=%s ms" % values[n % len(values)])
print("PASSED")
"""


def project(tmp_path: Path, toml: str, values: str = "1.5 2.5 3.5 4.5 5.5 6.5") -> Path:
    return write_tree(tmp_path / "proj", {"hipmigrate.toml": toml, "emit.py": EMIT, "values.txt": values})


def rows(output: str) -> list[list[str]]:
    return [[cell.strip() for cell in line.split("│")[1:-1]] for line in output.splitlines() if line.startswith("│")]


def test_regex_figure_warmups_and_results_file_under_hipmigrate(tmp_path):
    root = project(tmp_path, f"""
[bench]
repetitions = 3
warmups = 2

[[bench.benchmark]]
name = "emit"
command = "{PY} emit.py"
regex = 'time=([0-9.]+) ms'
unit = "ms"
expect = "^PASSED$"
""")
    result = cli("bench", root, "--no-progress")
    assert result.exit_code == 0, result.output
    files = list((root / ".hipmigrate" / "bench").glob("*.json"))
    assert len(files) == 1 and files[0].name.endswith("Z.json")
    assert f"results: {files[0]}" in result.stdout
    assert rows(result.stdout) == [["emit", "3/3", "4.5", "1", "ms", "ok"]]
    doc = json.loads(files[0].read_text())
    assert (doc["format"], doc["version"]) == ("hipmigrate-bench", 2)
    b = doc["benchmarks"][0]
    assert (b["profile"], b["kernels"]) == (None, [])  # no --kernels
    assert b["values"] == [3.5, 4.5, 5.5]  # the two warm-ups (1.5, 2.5) are run and recorded, not counted
    assert [(r["index"], r["warmup"], r["status"], r["value"]) for r in b["runs"]] == [
        (0, True, "ok", 1.5), (1, True, "ok", 2.5), (2, False, "ok", 3.5), (3, False, "ok", 4.5), (4, False, "ok", 5.5)]
    assert b["runs"][0]["output_tail"] == "warming up\ntime=1.5 ms\nPASSED\n"
    assert b["figure"] == {"kind": "regex", "regex": "time=([0-9.]+) ms", "json_field": None, "unit": "ms",
                           "higher_is_better": False}
    assert b["argv"] == ["/bin/sh", "-c", f"{PY} emit.py"] and b["status"] == "ok"
    assert doc["fingerprint"]["command"] == f"hipmigrate bench {root} --no-progress"
    assert verify.STATE == stage.STATE


def test_json_field_and_wall_time_and_pyproject(tmp_path):
    script = 'import json; print("log line"); print(json.dumps({"res": [{"gflops": 812.5}]}))'
    root = write_tree(tmp_path / "proj", {"pyproject.toml": f"""
[project]
name = "x"

[tool.hipmigrate.bench]
repetitions = 2
warmups = 0

[[tool.hipmigrate.bench.benchmark]]
name = "gemm"
command = [{json.dumps(sys.executable)}, "-c", {json.dumps(script)}]
json-field = "res.0.gflops"
unit = "GFLOP/s"
higher-is-better = true

[[tool.hipmigrate.bench.benchmark]]
name = "nap"
command = [{json.dumps(sys.executable)}, "-c", "import time; time.sleep(0.2)"]
"""})
    out = tmp_path / "r.json"
    result = cli("bench", root, "-o", out, "--no-progress")
    assert result.exit_code == 0, result.output
    doc = json.loads(out.read_text())
    gemm, nap = doc["benchmarks"]
    assert gemm["values"] == [812.5, 812.5] and gemm["figure"]["higher_is_better"] is True
    assert gemm["argv"] == [sys.executable, "-c", script]
    assert nap["figure"]["kind"] == "wall" and nap["figure"]["unit"] == "s"
    assert all(0.2 <= v < 5 for v in nap["values"]) and len(nap["values"]) == 2
    assert [r["seconds"] for r in nap["runs"]] == nap["values"]
    assert not (root / ".hipmigrate").exists()


def test_failed_timed_out_and_figureless_runs_are_recorded_not_dropped(tmp_path):
    root = project(tmp_path, f"""
[bench]
repetitions = 2
warmups = 0

[[bench.benchmark]]
name = "crash"
command = "echo boom >&2; exit 3"

[[bench.benchmark]]
name = "hang"
command = "sleep 30"
timeout = 0.5

[[bench.benchmark]]
name = "silent"
command = "echo nothing"
regex = 'time=([0-9.]+)'

[[bench.benchmark]]
name = "unchecked"
command = "echo time=1; echo FAILED"
regex = 'time=([0-9.]+)'
expect = "^PASSED$"

[[bench.benchmark]]
name = "missing"
command = ["/nonexistent/program"]

[[bench.benchmark]]
name = "fine"
command = "{PY} emit.py"
regex = 'time=([0-9.]+) ms'
""")
    out = tmp_path / "r.json"
    result = cli("bench", root, "-o", out, "--no-progress")
    assert result.exit_code == 1
    doc = json.loads(out.read_text())
    got = {b["name"]: (b["status"], [(r["status"], r["exit_code"], r["message"]) for r in b["runs"]])
           for b in doc["benchmarks"]}
    assert got["crash"] == ("failed", [("failed", 3, "exit status 3")] * 2)
    assert got["hang"] == ("failed", [("timeout", None, "killed after the timeout of 0.5 s")] * 2)
    assert got["silent"] == ("failed", [("no-figure", 0, "regex 'time=([0-9.]+)' matches nothing in stdout")] * 2)
    assert got["unchecked"] == ("failed", [("failed", 0, "stdout does not match expect '^PASSED$'")] * 2)
    assert got["missing"][0] == "failed" and got["missing"][1][0][:2] == ("error", None)
    assert got["missing"][1][0][2].startswith("cannot start '/nonexistent/program'")
    assert got["fine"] == ("ok", [("ok", 0, None)] * 2)
    assert doc["benchmarks"][0]["runs"][0]["output_tail"] == "boom\n"
    hang = doc["benchmarks"][1]["runs"]
    assert all(0.5 <= r["seconds"] < 10 for r in hang)  # killed, not waited for
    assert rows(result.stdout) == [["crash", "0/2", "-", "-", "s", "failed"], ["hang", "0/2", "-", "-", "s", "failed"],
                                   ["silent", "0/2", "-", "-", "", "failed"], ["unchecked", "0/2", "-", "-", "", "failed"],
                                   ["missing", "0/2", "-", "-", "s", "failed"], ["fine", "2/2", "2", "0.5", "", "ok"]]
    assert "hang run 2: timeout: killed after the timeout of 0.5 s" in result.stdout


def test_launcher_prefix_runs_each_benchmark_through_the_scheduler(tmp_path):
    log = tmp_path / "launcher.log"
    launcher = write_tree(tmp_path / "bin", {"fake-srun": f"""#!/bin/sh
# records its arguments, one a line, then drops its own options (as srun does) and runs the rest
for a in "$@"; do printf '%s\\n' "$a"; done >> {shlex.quote(str(log))}
echo "--" >> {shlex.quote(str(log))}
while [ "$#" -gt 0 ]; do
  case "$1" in -p) shift 2 ;; -*) shift ;; *) break ;; esac
done
exec "$@"
"""}) / "fake-srun"
    launcher.chmod(0o755)
    root = project(tmp_path, f"""
[bench]
repetitions = 2
warmups = 1

[[bench.benchmark]]
name = "emit"
command = ["{sys.executable}", "emit.py"]
regex = 'time=([0-9.]+) ms'
""")
    out = tmp_path / "r.json"
    result = cli("bench", root, "-o", out, "--no-progress", "--launcher", f"{launcher} -p mi300x --gpus=1")
    assert result.exit_code == 0, result.output
    one = ["-p", "mi300x", "--gpus=1", sys.executable, "emit.py", "--"]
    assert log.read_text().splitlines() == one * 3  # the warm-up and both measured runs
    doc = json.loads(out.read_text())
    assert doc["launcher"] == f"{launcher} -p mi300x --gpus=1"
    b = doc["benchmarks"][0]
    assert b["argv"] == [str(launcher), "-p", "mi300x", "--gpus=1", sys.executable, "emit.py"]
    assert b["values"] == [2.5, 3.5] and b["status"] == "ok"
    assert f"launcher: {launcher} -p mi300x --gpus=1" in result.stdout


def test_build_runs_first_and_a_failed_build_skips_the_benchmarks_with_the_reason(tmp_path):
    ok = write_tree(tmp_path / "ok", {"hipmigrate.toml": """
[bench]
build = "mkdir -p out && printf 'echo time=7' > out/prog.sh"
repetitions = 2
warmups = 0
[[bench.benchmark]]
name = "built"
cwd = "out"
command = "sh prog.sh"
regex = 'time=([0-9]+)'
"""})
    bad = write_tree(tmp_path / "bad", {"hipmigrate.toml": """
[bench]
build = "echo cannot compile >&2; exit 2"
[[bench.benchmark]]
name = "unbuilt"
command = "true"
"""})
    out = tmp_path / "r.json"
    result = cli("bench", ok, bad, "-o", out, "--no-progress")
    assert result.exit_code == 1
    doc = json.loads(out.read_text())
    assert [(b["project"], b["status"], b["exit_code"], b["output_tail"]) for b in doc["builds"]] == [
        (str(ok), "ok", 0, ""), (str(bad), "failed", 2, "cannot compile\n")]
    built, unbuilt = doc["benchmarks"]
    assert built["values"] == [7.0, 7.0] and built["cwd"] == str(ok / "out")
    assert (unbuilt["status"], unbuilt["skipped"], unbuilt["runs"]) == ("skipped", "the project's build failed", [])
    assert "unbuilt: not run: the project's build failed" in result.stdout
    again = cli("bench", ok, "-o", out, "--no-progress", "--no-build", "--only", "built", "-n", "1")
    assert again.exit_code == 0
    doc = json.loads(out.read_text())
    assert doc["builds"] == [] and [len(b["runs"]) for b in doc["benchmarks"]] == [1]


@pytest.mark.parametrize("toml, message", [
    ("", "no [tool.hipmigrate.bench] in hipmigrate.toml or pyproject.toml"),
    ("[bench]\nrepetitions = 2\n", "declare at least one [[...bench.benchmark]] table"),
    ("[bench]\nrepetitons = 2\n[[bench.benchmark]]\nname='a'\ncommand='true'\n", "unknown key 'repetitons'"),
    ("[[bench.benchmark]]\nname='a'\ncommand='true'\nregex='('\n", "`regex` '(' does not compile"),
    ("[[bench.benchmark]]\nname='a'\ncommand='true'\nregex='x'\njson-field='y'\n", "give `regex` or `json-field`, not both"),
    ("[[bench.benchmark]]\nname='a'\ncommand='true'\nrepetitions=0\n", "`repetitions` must be a whole number of at least 1"),
    ("[[bench.benchmark]]\nname='a'\ncommand='true'\n[[bench.benchmark]]\nname='a'\ncommand='true'\n",
     "benchmark name 'a' is declared twice"),
    ("[[bench.benchmark]]\nname='a b'\ncommand='true'\n", "`name` must be a word"),
    ("[[bench.benchmark]]\nname='a'\ncommand=''\n", "`command` must be a shell command line or a list of arguments"),
])
def test_declaration_errors_exit_2(tmp_path, toml, message):
    root = write_tree(tmp_path / "p", {"hipmigrate.toml": toml})
    result = cli("bench", root, "--no-progress")
    assert result.exit_code == 2
    assert message in result.stderr
    assert not (root / ".hipmigrate").exists()


def test_usage_errors_exit_2(tmp_path):
    root = project(tmp_path, "[[bench.benchmark]]\nname='a'\ncommand='true'\n")
    assert "--only 'b': no such benchmark (declared: a)" in cli("bench", root, "--only", "b").stderr
    several = cli("bench", root, root)
    assert several.exit_code == 2 and "several projects: name the results file with -o FILE" in several.stderr
    missing = cli("bench", tmp_path / "nowhere")
    assert missing.exit_code == 2 and "not a folder" in missing.stderr
    assert cli("bench", root, "--repetitions", "0").exit_code == 2  # click's own check


def test_fingerprint_reports_only_what_tools_report(tmp_path, monkeypatch):
    empty = tmp_path / "empty"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))  # no nvidia-smi, rocm-smi, amd-smi, hipconfig, hipcc, nvcc or git
    monkeypatch.setenv("ROCM_PATH", str(empty))
    fp = fingerprint.of_this_machine(tmp_path, "hipmigrate bench .")
    assert {k: v for k, v in fp.as_dict().items() if k not in ("host", "os")} == {
        "gpu_name": None, "gpu_count": None, "gpu_tool": None, "driver": None, "cuda_version": None,
        "rocm_version": None, "hip_version": None, "hipcc_version": None, "nvcc_version": None,
        "git_commit": None, "git_dirty": None, "command": "hipmigrate bench ."}
    assert fp.host == os.uname().nodename


@pytest.mark.git
def test_fingerprint_reads_the_git_commit(tmp_path):
    repo = git_repo(tmp_path / "repo", {"a.txt": "a\n"})
    head = subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    fp = fingerprint.of_this_machine(repo, "x")
    assert (fp.git_commit, fp.git_dirty) == (head, False)
    (repo / "a.txt").write_text("changed\n")
    assert fingerprint.of_this_machine(repo, "x").git_dirty is True


def test_fingerprint_parsers_on_recorded_outputs():
    # as printed on the H200 device machine, 2026-11-29
    assert fingerprint.parse_nvidia_smi_query("NVIDIA H200, 580.159.04\n") == [("NVIDIA H200", "580.159.04")]
    assert fingerprint.parse_nvidia_smi_query("NVIDIA H200, 580.159.04\nNVIDIA H200, 580.159.04\n") == [
        ("NVIDIA H200", "580.159.04")] * 2
    banner = "| NVIDIA-SMI 580.159.04    Driver Version: 580.159.04     CUDA Version: 13.0     |"
    assert fingerprint.parse_nvidia_smi_cuda(banner) == "13.0"
    nvcc = "nvcc: NVIDIA (R) Cuda compiler driver\nCuda compilation tools, release 13.0, V13.0.88\nBuild cuda_13.0\n"
    assert fingerprint.parse_nvcc_version(nvcc) == "release 13.0, V13.0.88"
    assert fingerprint.parse_hipcc_version("HIP version: 5.2.21153-0\nclang version 15\n") == "5.2.21153-0"
    assert fingerprint.parse_rocm_smi_driver("======= ROCm System Management Interface =======\n"
                                             "Driver version: 6.8.5\n") == "6.8.5"
    assert fingerprint.parse_nvcc_version("") is None and fingerprint.parse_nvidia_smi_cuda("") is None


@pytest.mark.parametrize("name", SAMPLES)
def test_sample_declarations(name):
    c = config.load(ROOT / "samples" / name)
    assert c.source == ROOT / "samples" / name / "hipmigrate.toml"
    assert "src" in c.build and ".hipmigrate/bench/build" in c.build  # builds a copy; src/ is never written to
    (b,) = c.benchmarks
    assert (b.name, b.command, b.cwd, b.repetitions, b.warmups, b.expect) == (
        name, f"./{name}", ROOT / "samples" / name / ".hipmigrate" / "bench" / "build", 10, 1, "^PASSED$")
    figure = ("regex", "ms") if name == "saxpy_streams" else ("wall", "s")
    assert (b.figure.kind, b.figure.unit, b.figure.higher_is_better) == (*figure, False)


def test_sample_results_files_load_and_hold_every_run():
    for run in ("h200-run1", "h200-run2"):
        r = results.load(ROOT / "samples" / "bench" / f"{run}.json")
        assert [b.name for b in r.benchmarks] == list(SAMPLES)
        assert all(b.status == "ok" and len(b.values) == 10 and len(b.runs) == 11 for b in r.benchmarks)
        fp = r.fingerprint
        assert (fp["gpu_name"], fp["gpu_count"], fp["gpu_tool"], fp["driver"], fp["cuda_version"],
                fp["nvcc_version"]) == ("NVIDIA H200", 1, "nvidia-smi", "580.159.04", "13.0", "release 13.0, V13.0.88")
        assert fp["hip_version"] is None and fp["hipcc_version"] is None and fp["rocm_version"] is None


def test_load_rejects_foreign_and_newer_files(tmp_path):
    (tmp_path / "a.json").write_text('{"format": "other"}')
    (tmp_path / "b.json").write_text('{"format": "hipmigrate-bench", "version": 99}')
    (tmp_path / "c.json").write_text("not json")
    with pytest.raises(BenchError, match="not a results file of `hipmigrate bench`"):
        results.load(tmp_path / "a.json")
    with pytest.raises(BenchError, match="results format version 99; this hipmigrate reads versions 1 and 2"):
        results.load(tmp_path / "b.json")
    with pytest.raises(BenchError, match="not JSON"):
        results.load(tmp_path / "c.json")


def test_bench_json_output_is_the_results_file(tmp_path):
    root = project(tmp_path, f"[bench]\nrepetitions=1\nwarmups=0\n[[bench.benchmark]]\nname='e'\ncommand='{PY} emit.py'\n")
    out = tmp_path / "r.json"
    result = cli("bench", root, "-o", out, "--output-format", "json")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == json.loads(out.read_text())
