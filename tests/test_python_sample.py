"""samples/pytorch_ddp: the PyTorch sample's migrated tree (golden, compared in tests/test_samples.py, which
also compiles its C++ units for gfx90a) still imports and runs its CPU path with torch installed, and what
must stay for PyTorch on ROCm stays."""
import subprocess
import sys
from pathlib import Path

import pytest

from migrate.cpp.hipify_perl import TOOLCHAIN
from tests.conftest import need_tool, need_torch

SAMPLE = Path(__file__).resolve().parent.parent / "samples" / "pytorch_ddp"
IMPORT_AND_RUN = """
import importlib.util, sys
spec = importlib.util.spec_from_file_location("train", sys.argv[1])
train = importlib.util.module_from_spec(spec)
spec.loader.exec_module(train)
import torch
y = train.scale_bias(torch.ones(3), 0.5, 0.1)  # the extension is not built: the torch fallback runs
print(sorted(n for n in ("main", "parse_args", "scale_bias", "log_gpus") if hasattr(train, n)), y.tolist())
"""


@pytest.mark.torch
def test_migrated_training_script_imports_with_torch():
    need_torch()
    proc = subprocess.run([sys.executable, "-c", IMPORT_AND_RUN, str(SAMPLE / "expected" / "train.py")],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.strip().splitlines()[-1] == ("['log_gpus', 'main', 'parse_args', 'scale_bias'] "
                                                    "[0.6000000238418579, 0.6000000238418579, 0.6000000238418579]")


def test_what_pytorch_on_rocm_needs_is_kept():
    train = (SAMPLE / "expected" / "train.py").read_text()
    assert 'backend="nccl"' in train and 'torch.device("cuda", local_rank)' in train
    assert "torch.cuda.amp" not in train  # deprecated: torch.amp with "cuda"
    assert "torch.cuda.Stream()" in train and "torch.cuda.current_stream().cuda_stream" in train
    setup = (SAMPLE / "expected" / "setup.py").read_text()
    assert "CUDAExtension(" in setup and '"nvcc": NVCC_FLAGS' in setup


@pytest.mark.nvcc
def test_original_kernel_compiles_with_nvcc(tmp_path):
    nvcc = need_tool("nvcc")
    source = SAMPLE / "src" / "csrc" / "scale_bias.cu"
    proc = subprocess.run([nvcc, "-arch=sm_90", "-std=c++17", "-c", str(source), "-o", str(tmp_path / "k.o"),
                           "-I", str(TOOLCHAIN / "cuda" / "include")], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-3000:]


def test_fixes_by_rule_in_the_run_summary(tmp_path):
    from migrate import api
    from migrate.options import Options
    from migrate.report import assemble
    from tests.helpers import cli

    _, result = api.analyse(SAMPLE / "src", Options(hip_version="5.2"))
    assert assemble.migration(result).fixes_by_rule == {
        "BLD201": 4, "CPP001": 2, "PY005": 1, "PY011": 1, "PY020": 2, "PY021": 1, "PY022": 1, "PY040": 1, "PY041": 1, "PY050": 1,
        "PY055": 1}
    run = cli("run", SAMPLE / "src", "--out", tmp_path / "out", "--hip-version", "5.2", "--no-progress")
    assert run.exit_code == 1  # an error is left: nvidia-ml-py in requirements.txt (PY044) needs a hand port
    assert "fixes applied by rule" in run.stdout and "TorchCudaAmp" in run.stdout
    assert "info (kept as they are)" in run.stdout and "PY008 backend 'nccl' stays" in run.stdout


def test_run_opens_with_the_blockers_and_ends_with_the_effort(tmp_path, monkeypatch):
    """What stops the build first, grouped, with the next step; then the lists by severity; at the end the effort
    class with the largest files and where the full report is."""
    from tests.helpers import cli

    monkeypatch.setenv("COLUMNS", "80")
    out = tmp_path / "out"
    run = cli("run", SAMPLE / "src", "--out", out, "--hip-version", "5.2", "--no-progress")
    lines = run.stdout.splitlines()
    assert lines[1:4] == ["blockers: 1 finding in 1 group stop a build for HIP 5.2",
                          "     1 x PY044 CudaOnlyPackage, first at requirements.txt:5:1",
                          "         next: read `hipmigrate rules PY044`"]
    assert lines[-2] == ("effort: small (25 of 205 lines changed automatically, 0 to review); largest: "
                         "csrc/binding.cpp (5 lines changed, 0 to review); train.py (5 lines changed, 0 to review); "
                         "csrc/scale_bias.cu (4 lines changed, 0 to review)")
    assert lines[-1] == f"output: {out}; the full report: hipmigrate report {out} --output-format html -o report.html"
    stats = cli("run", SAMPLE / "src", "--out", tmp_path / "out2", "--hip-version", "5.2", "--no-progress",
                "--statistics").stdout.splitlines()
    assert [line.split() for line in stats[4:7]] == [["10", "MAP001", "pack", "conversions"],
                                                      ["4", "BLD201", "NvccFlagInTorchExtension"],
                                                      ["3", "PY023", "CudaVisibleDevicesVariable"]]
