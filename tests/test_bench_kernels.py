"""`hipmigrate bench --kernels` and the per-kernel part of `compare`: Nsight Compute's real CSV recorded on the H200
(tests/fixtures/bench_kernels/ncu/), the committed per-kernel results of the samples (samples/bench/kernels-h200*.json)
re-derived from it, rocprofv3's kernel trace in the format of its documentation, and compare's per-kernel verdicts
of the H200 results against a ROCm candidate recorded from those traces."""
from __future__ import annotations

import json
import os
import statistics
import sys
from pathlib import Path

import pytest

from migrate.bench import kernels, ncu, profile, results, rocprof
from migrate.bench.kernels import Launch
from migrate.bench.ncu import ProfileError
from tests.helpers import cli, write_tree
from tests.test_compare import independent, rows

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "fixtures" / "bench_kernels"
H200, H200_LIBS, H200_RUN2, H200_PRESSURE = (ROOT / "samples" / "bench" / f"kernels-h200{s}.json"
                                             for s in ("", "-libs", "-run2", "-pressure"))
SIX = ("saxpy_streams", "block_reduce", "cublas_sgemm", "curand_pi", "multifile_constant", "ballot_compaction")


def test_ncu_csv_recorded_on_the_h200_by_hand():
    launches = ncu.parse((DATA / "ncu" / "saxpy_streams-by-hand.csv").read_text())
    # ncu's warnings and the program's own output come first; "5,152" has a thousands separator; the unit is "ns"
    assert launches == [Launch("saxpy(int, float, const float *, float *)", d, (4097, 1, 1), (256, 1, 1))
                        for d in (5152.0, 5312.0, 5664.0, 5952.0)]


@pytest.mark.parametrize("path", [H200, H200_LIBS, H200_PRESSURE], ids=["six", "libs", "pressure"])
def test_committed_h200_results_are_what_ncu_printed(path):
    """Every kernel of the committed results file, re-derived from the raw CSV of its profiled runs."""
    doc = results.load(path)
    assert doc.fingerprint["gpu_name"] == "NVIDIA H200"
    for b in doc.benchmarks:
        assert b.profile.tool == "ncu" and b.profile.version == "2025.3.1.0"
        assert b.profile.argv[1:16] == ["--csv", "--log-file", "<profile>", *ncu.OPTIONS[1:]]
        assert [r.status for r in b.profile.runs] == ["ok"] * 5
        raw = [ncu.parse((DATA / "ncu" / "profiles" / f"{b.name}-{i}.csv").read_text()) for i in range(5)]
        assert b.kernels == kernels.group(raw)


def test_h200_kernels_of_the_samples():
    """What the H200 measured: each sample's own kernels (every __global__ it launches) with launches per run and
    the launch configuration the sources use, plus the library kernels of cuBLAS, cuRAND, cuBLASLt and cuDNN."""
    seen = {b.name: {k.key: (k.launches // k.runs, k.configs) for k in b.kernels}
            for path in (H200, H200_LIBS, H200_PRESSURE) for b in results.load(path).benchmarks}
    assert seen["saxpy_streams"] == {"saxpy": (4, (((4097, 1, 1), (256, 1, 1), 20),))}
    assert seen["block_reduce"] == {"reduceSum": (1, (((1024, 1, 1), (256, 1, 1), 5),))}
    assert seen["multifile_constant"] == {"init_signal": (1, (((3907, 1, 1), (256, 1, 1), 5),)),
                                          "stencil_1d": (1, (((3907, 1, 1), (256, 1, 1), 5),))}
    assert seen["ballot_compaction"] == {"compactGreater": (1, (((16401, 1, 1), (256, 1, 1), 5),))}
    assert seen["curand_pi"]["countInside"] == (1, (((1024, 1, 1), (256, 1, 1), 5),))
    assert seen["bf16_layernorm"] == {"layernorm_forward": (21, (((512, 1, 1), (256, 1, 1), 105),))}
    assert seen["kernel_pressure"] == {"tile_accumulate": (1, (((8, 1, 1), (256, 1, 1), 5),)),
                                       "stage_rows": (1, (((16, 1, 1), (256, 1, 1), 5),)),
                                       "histogram_bins": (1, (((256, 1, 1), (256, 1, 1), 5),)),
                                       "row_sums": (1, (((4096, 1, 1), (32, 1, 1), 5),))}
    assert seen["nccl_nvtx_step"] == {"weight_gradient": (1, (((64, 1, 1), (256, 1, 1), 5),)),
                                      "sgd_update": (1, (((64, 1, 1), (256, 1, 1), 5),))}
    assert len(seen["cublas_sgemm"]) == 2 and all(k.startswith("sm80_xmma_gemm_f32f32") for k in seen["cublas_sgemm"])
    assert list(seen["cublaslt_gelu"]) == ["nvjet_sm90_tst_64x64_64x13_4x2_h_bz_gelubias_TNT"]
    assert len(seen["cudnn_conv"]) == 11
    medians = {(b.name, k.key): statistics.median(k.durations_ns) for b in results.load(H200).benchmarks
               for k in b.kernels}
    assert medians[("block_reduce", "reduceSum")] == 31136.0
    assert medians[("saxpy_streams", "saxpy")] == 4960.0


def test_pairing_key():
    assert kernels.key("void reduceSum<256>(const float *, float *, int)") == "reduceSum<256>"
    assert kernels.key("reduceSum<256>(float const*, float*, int)") == "reduceSum<256>"
    assert kernels.key("addition_kernel<float>") == "addition_kernel<float>"  # rocprofv3 without arguments
    assert kernels.key("(anonymous namespace)::fill(float*)") == "(anonymousnamespace)::fill"
    assert kernels.key("k<(int)4>(float*)") == "k<(int)4>"
    # overloads that differ only in their parameters stay apart, under their full names
    found = kernels.group([[Launch("f(int*)", 1.0), Launch("f(float*)", 2.0), Launch("g()", 3.0)]])
    assert [(k.key, k.durations_ns) for k in found] == [("f(int*)", (1.0,)), ("f(float*)", (2.0,)), ("g", (3.0,))]


def test_rocprofv3_trace_from_its_documentation():
    launches = rocprof.parse((DATA / "rocprofv3" / "docs-example_kernel_trace.csv").read_text())
    # sorted by start time (the rows are not); the grid counted in blocks, not work-items
    assert [(kernels.key(x.name), x.duration_ns) for x in launches] == [
        ("addition_kernel<float>", 12800.0), ("subtract_kernel", 8240.0), ("multiply_kernel", 11160.0),
        ("divide_kernel", 11200.0), ("addition_kernel<float>", 11400.0), ("subtract_kernel", 9160.0),
        ("multiply_kernel", 9920.0), ("divide_kernel", 12440.0), ("addition_kernel<float>", 9840.0)]
    assert {(x.grid, x.block) for x in launches} == {((16, 1024, 1), (64, 1, 1))}


def test_unreadable_profiler_output():
    header = '"ID","Kernel Name","Metric Name","Metric Unit","Metric Value"\n'
    with pytest.raises(ProfileError, match=r"lacks the column\(s\) Metric Unit"):
        ncu.parse('"ID","Kernel Name","Metric Name","Metric Value"\n')
    with pytest.raises(ProfileError, match="in 'cycle', not a time unit"):
        ncu.parse(header + '"0","k()","gpu__time_duration.sum","cycle","12"\n')
    assert ncu.parse("==WARNING== No kernels were profiled.\n") == []
    with pytest.raises(ProfileError, match="lacks the column"):
        rocprof.parse('"Kind","Kernel_Name","Start_Timestamp"\n')


# --- a ROCm candidate: bench --kernels through rocprofv3, whose traces are the documentation-format files ---------

# Stands in for rocprofv3, which this machine lacks: writes the trace named by $TRACE where rocprofv3 would (a
# folder per host and process under -d), then runs the command after "--" and exits with its status.
ROCPROFV3 = """import os, pathlib, shutil, subprocess, sys
if sys.argv[1:] == ["--version"]:
    print("rocprofv3 1.0.0"); sys.exit(0)
out = pathlib.Path(sys.argv[sys.argv.index("-d") + 1]) / "host" / str(os.getpid())
if os.environ.get("TRACE"):
    out.mkdir(parents=True)
    shutil.copy(os.environ["TRACE"], out / "kernels_kernel_trace.csv")
sys.exit(subprocess.call(sys.argv[sys.argv.index("--") + 1:]))
"""


def stand_in_rocprofv3(tmp_path: Path, monkeypatch) -> None:
    tools = write_tree(tmp_path / "tools", {"rocprofv3": f"#!{sys.executable}\n{ROCPROFV3}"})
    (tools / "rocprofv3").chmod(0o755)
    monkeypatch.setenv("PATH", f"{tools}{os.pathsep}{os.environ['PATH']}")


def rocm_candidate(tmp_path: Path, monkeypatch, benchmarks=SIX) -> Path:
    stand_in_rocprofv3(tmp_path, monkeypatch)
    toml = "[bench]\nwarmups = 0\nrepetitions = 5\n"
    for name in benchmarks:
        trace = DATA / "rocprofv3" / f"{name}_kernel_trace.csv"
        toml += (f"[[bench.benchmark]]\nname = '{name}'\ncommand = 'echo PASSED'\nexpect = '^PASSED$'\n"
                 f"env = {{ TRACE = '{trace if trace.exists() else ''}' }}\n")
    project = write_tree(tmp_path / "rocm", {"hipmigrate.toml": toml})
    out = tmp_path / "rocm.json"
    result = cli("bench", project, "--kernels", "--profiler", "rocprofv3", "-o", out, "--no-progress")
    assert result.exit_code == 0, result.output
    return out


def test_rocm_candidate_is_recorded_from_the_traces(tmp_path, monkeypatch):
    doc = results.load(rocm_candidate(tmp_path, monkeypatch))
    saxpy = doc.benchmark("saxpy_streams")
    assert (saxpy.profile.tool, saxpy.profile.version, len(saxpy.profile.runs)) == ("rocprofv3", "1.0.0", 5)
    assert saxpy.profile.argv[1:] == ["--kernel-trace", "--stats", "--output-format", "csv", "-d", "<profile>", "-o", "kernels",
                                      "--", "/bin/sh", "-c", "echo PASSED"]
    (k,) = saxpy.kernels
    assert (k.name, k.key, k.runs, k.launches) == ("saxpy(int, float, float const*, float*)", "saxpy", 5, 20)
    assert k.durations_ns[:4] == (9480.0, 9600.0, 9720.0, 9840.0)  # by start time, not by row
    assert k.configs == (((4097, 1, 1), (256, 1, 1), 20),)


def kernel_table(output: str) -> list[list[str]]:
    """The rows of compare's kernel table (the benchmark table comes first)."""
    table = output.split("kernels (duration per launch)")[1]
    return [r for r in rows(table) if r[0]]


def test_compare_h200_against_the_rocm_candidate(tmp_path, monkeypatch):
    cand = rocm_candidate(tmp_path, monkeypatch)
    result = cli("compare", H200, cand)
    base_doc, cand_doc = results.load(H200), results.load(cand)
    expected = {}
    for b in base_doc.benchmarks:
        for k in b.kernels:
            c = cand_doc.benchmark(b.name).kernel(k.key)
            if c is not None:
                bu, cu = [d / 1000 for d in k.durations_ns], [d / 1000 for d in c.durations_ns]
                ratio, low, high, verdict = independent(bu, cu)
                expected[(b.name, k.key)] = [f"{ratio:.3f}", f"{low:.3f}-{high:.3f}", verdict]
    assert {(r[0], r[1]): [r[7], r[8], r[9]] for r in kernel_table(result.stdout)} == expected
    assert {key: v[2] for key, v in expected.items()} == {
        ("saxpy_streams", "saxpy"): "slower", ("block_reduce", "reduceSum"): "faster",
        ("curand_pi", "countInside"): "same", ("multifile_constant", "init_signal"): "same",
        ("multifile_constant", "stencil_1d"): "slower", ("ballot_compaction", "compactGreater"): "same"}
    assert expected[("saxpy_streams", "saxpy")][0] == "1.948"  # 9.66 us against 4.96 us
    assert "cublas_sgemm: kernels only in candidate: Cijk_Ailk_Bljk_SB_MT32x32x8_SN_K1" in result.stdout
    assert "curand_pi: kernels only in base: generate_seed_pseudo<rng_config<curandStateXORWOW,101>>" in result.stdout
    # the slowdown is carried by saxpy (four launches a run, 4.7 us more each), then stencil_1d
    assert "slower kernels: saxpy_streams/saxpy (+18.8 us per run), multifile_constant/stencil_1d (+2.592 us per run)" \
        in result.stdout
    doc = json.loads(cli("compare", H200, cand, "--output-format", "json").stdout)
    saxpy = next(k for k in doc["kernels"] if k["key"] == "saxpy")
    assert (saxpy["benchmark"], saxpy["unit"], saxpy["verdict"], saxpy["base_share"]) == (
        "saxpy_streams", "us", "slower", 1.0)
    assert (saxpy["base"]["launches_per_run"], saxpy["candidate"]["launches_per_run"]) == (4.0, 4.0)
    assert (saxpy["base"]["median"], saxpy["candidate"]["median"], saxpy["base"]["n"]) == (4.96, 9.66, 20)
    assert doc["kernels_only_candidate"] == {"cublas_sgemm": ["Cijk_Ailk_Bljk_SB_MT32x32x8_SN_K1"],
                                             "curand_pi": [
                                                 "rocrand_host::detail::init_engines_kernel<rocrand_state_xorwow>",
                                                 "rocrand_host::detail::generate_kernel<rocrand_state_xorwow,float>"]}


def test_two_h200_runs_give_same_for_every_kernel():
    result = cli("compare", H200, H200_RUN2)
    assert result.exit_code == 0
    table = kernel_table(result.stdout)
    assert len(table) == 10 and {r[9] for r in table} == {"same"}


def test_version_1_files_still_load_and_compare():
    old = results.load(ROOT / "samples" / "bench" / "h200-run1.json")
    assert all(b.profile is None and b.kernels == () for b in old.benchmarks)
    result = cli("compare", ROOT / "samples" / "bench" / "h200-run1.json", H200, "--output-format", "json")
    doc = json.loads(result.stdout)
    assert len(doc["benchmarks"]) == 6 and "kernels" not in doc  # no per-kernel part without profiled runs


def test_without_a_profiler_and_options_without_kernels(tmp_path, monkeypatch):
    project = write_tree(tmp_path / "p", {"hipmigrate.toml": "[[bench.benchmark]]\nname='a'\ncommand='true'\n"})
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setenv("ROCM_PATH", str(tmp_path))
    if profile._where("rocprofv3") is None:  # /opt/rocm/bin has none either
        missing = cli("bench", project, "--kernels", "--profiler", "rocprofv3", "-o", tmp_path / "r.json")
        assert missing.exit_code == 2
        assert "--kernels needs a profiler and none was found: rocprofv3" in missing.stderr
    stray = cli("bench", project, "--kernel-runs", "3", "-o", tmp_path / "r.json")
    assert stray.exit_code == 2 and "--profiler, --kernel-runs and --profile-dir go with --kernels" in stray.stderr


def test_a_profiled_run_without_a_trace_fails_with_the_reason(tmp_path, monkeypatch):
    stand_in_rocprofv3(tmp_path, monkeypatch)
    monkeypatch.delenv("TRACE", raising=False)
    project = write_tree(tmp_path / "p", {"hipmigrate.toml": "[bench]\nwarmups=0\nrepetitions=2\n"
                                          "[[bench.benchmark]]\nname='a'\ncommand='echo hi'\n"})
    out = tmp_path / "r.json"
    result = cli("bench", project, "--kernels", "--profiler", "rocprofv3", "--kernel-runs", "1", "-o", out,
                 "--no-progress")
    assert result.exit_code == 1
    b = results.load(out).benchmarks[0]
    assert (b.status, b.kernels, len(b.values)) == ("partial", (), 2)
    assert [(r.status, r.message) for r in b.profile.runs] == [
        ("failed", "rocprofv3 wrote no kernel_trace.csv under trace")]
    assert "a profiled run 1: failed: rocprofv3 wrote no kernel_trace.csv under trace" in result.stdout


def test_report_carries_the_kernel_comparison_and_follows_its_schema(tmp_path):
    import jsonschema

    from tests.test_report import SCHEMA, migrate

    dst = migrate(tmp_path)
    result = cli("report", dst, "--output-format", "json", "--bench", H200, H200_RUN2)
    doc = json.loads(result.stdout)
    jsonschema.Draft202012Validator(json.loads(SCHEMA.read_text())).validate(doc)
    kernels_ = doc["comparison"]["kernels"]
    assert len(kernels_) == 10 and {k["verdict"] for k in kernels_} == {"same"}
    assert doc["comparison"]["kernels_only_base"] == {} and doc["comparison"]["kernels_only_candidate"] == {}
