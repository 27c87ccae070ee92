"""samples/pytorch_fused_ops: a fused-kernel extension library with branch-assembled CUDAExtension flags, a
requirements file with per-line options, a Dockerfile without a last line break, a multi-stage Dockerfile on ARG
bases and a GitHub workflow (golden tree compared and compiled in tests/test_samples.py). Here: what is left for a hand
edit, finding by finding; the flags each migrated CUDAExtension hands hipcc, taken from running the migrated setup.py,
and hipcc compiling a kernel with them; the migrated package importing and running its torch paths with CPU torch."""
from __future__ import annotations

import os
import runpy
import subprocess
import sys
import types
from pathlib import Path

import pytest

from migrate import api
from migrate.fixing import allowed
from migrate.options import Options
from migrate.report import assemble
from tests.conftest import need_torch

SAMPLE = Path(__file__).resolve().parent.parent / "samples" / "pytorch_fused_ops"


@pytest.fixture(scope="module")
def result():
    _, migrated = api.analyse(SAMPLE / "src", Options(hip_version="5.2"))
    return migrated


def test_every_file_kind_is_read_and_none_is_skipped(result):
    """The requirements file with per-line options and the Dockerfile without a last line break are migrated, not
    copied unchanged with INP001 (issue 17, defect 1)."""
    assert [f for f in result.findings if f.code.startswith("INP")] == []
    changed = sorted(r.path for r in result.changed)
    assert changed == [".github/workflows/ci.yml", "csrc/adam.cpp", "csrc/adam_kernel.cu", "csrc/layernorm.cpp",
                       "csrc/layernorm_kernel.cu", "csrc/softmax_xent.cpp", "csrc/softmax_xent_kernel.cu",
                       "docker/Dockerfile", "docker/Dockerfile.release", "fused_ops/_runtime.py", "fused_ops/layers.py",
                       "requirements.txt", "setup.py"]


def test_what_is_left_for_a_hand_edit(result):
    left = sorted((f.span.path, f.span.line, f.code) for f in result.findings
                  if not allowed(f, Options()) and f.kind.value in ("python", "build"))
    assert left == [
        (".github/workflows/ci.yml", 14, "PY060"),  # [self-hosted, linux, gpu] whose steps run nvidia-smi
        (".github/workflows/ci.yml", 23, "PY052"),  # cuda-nsight-systems-12-1
        ("docker/Dockerfile.release", 3, "PY051"),  # NGC PyTorch base: rocm/pytorch only with --unsafe-fixes
        ("docker/Dockerfile.release", 20, "PY024"),  # NVIDIA_VISIBLE_DEVICES
        ("fused_ops/_runtime.py", 15, "PY011"),  # nvidia-smi --query-gpu=driver_version, parsed
        ("fused_ops/_runtime.py", 25, "PY016"),  # parse(get_nvidia_driver_version())
        ("fused_ops/_runtime.py", 30, "PY017"),  # TF32 switches: notes
        ("fused_ops/_runtime.py", 31, "PY017"),
        ("fused_ops/optim.py", 28, "PY010"),  # self.sm >= 80
        ("requirements.txt", 4, "PY045"),  # triton from PyPI
        ("setup.py", 16, "PY072"),  # nvcc -V parsed for CUDA's release
        ("setup.py", 27, "PY013"),  # if CUDA_HOME is None: raise
        ("setup.py", 30, "PY013"),  # get_cuda_bare_metal_version(CUDA_HOME)
    ]
    assert assemble.migration(result).fixes_by_rule == {
        "BLD201": 11, "CPP001": 6, "PY005": 1, "PY015": 1, "PY020": 1, "PY021": 6, "PY040": 4, "PY050": 3, "PY061": 1, "PY063": 1}


def test_migrated_setup_py_gives_hipcc_flags_it_accepts(tmp_path, monkeypatch, hipcc):
    """Run the migrated setup.py with its CUDA_HOME pointing at a fake nvcc (the hand edit it still needs) and record
    every CUDAExtension: no architecture is written (PYTORCH_ROCM_ARCH decides), no nvcc option is left, and hipcc
    compiles a kernel with exactly those flags for gfx90a."""
    toolkit = tmp_path / "cuda"
    (toolkit / "bin").mkdir(parents=True)
    recorded: list[dict] = []
    extension = types.ModuleType("torch.utils.cpp_extension")
    extension.CUDA_HOME = str(toolkit)
    extension.BuildExtension = object
    extension.CUDAExtension = lambda **kw: recorded.append(kw) or kw
    setuptools = types.ModuleType("setuptools")
    setuptools.setup = lambda **kw: None
    setuptools.find_packages = lambda **kw: []
    monkeypatch.setitem(sys.modules, "torch.utils.cpp_extension", extension)
    monkeypatch.setitem(sys.modules, "setuptools", setuptools)
    monkeypatch.setattr(subprocess, "check_output", lambda *a, **kw: "Cuda compilation tools, release 12.1, V12.1.105")
    monkeypatch.delenv("FUSED_OPS_DEBUG", raising=False)
    runpy.run_path(str(SAMPLE / "expected" / "setup.py"), run_name="__main__")

    release = ["-O3", "-fgpu-flush-denormals-to-zero", "-fno-hip-fp32-correctly-rounded-divide-sqrt", "-std=c++17",
               "-U__CUDA_NO_HALF_OPERATORS__", "-U__CUDA_NO_HALF_CONVERSIONS__"]
    assert [(e["name"], e["extra_compile_args"]["nvcc"]) for e in recorded] == [
        ("fused_ops.layernorm_cuda", release), ("fused_ops.adam_cuda", release),
        ("fused_ops.softmax_xent_cuda", release), ("fused_ops.adam_fp8_cuda", release)]

    kernel = SAMPLE / "expected" / "csrc" / "adam_kernel.cu"
    proc = subprocess.run([hipcc, "-x", "hip", "--offload-arch=gfx90a", *release, "-c", str(kernel),
                           "-o", str(tmp_path / "adam.o")], capture_output=True, text=True, timeout=600,
                          env={**os.environ, "HIP_PLATFORM": "amd"})
    assert proc.returncode == 0, proc.stderr[-3000:]


RUN = """
import sys
sys.path.insert(0, sys.argv[1])
import torch
import fused_ops
from fused_ops import FusedAdam, FusedLayerNorm, softmax_cross_entropy
from fused_ops import _runtime

x = torch.randn(8, 32)
layer = FusedLayerNorm(32)
ok_ln = torch.allclose(layer(x), torch.nn.functional.layer_norm(x, (32,), layer.weight, layer.bias))
logits, labels = torch.randn(4, 10), torch.tensor([1, 2, 3, 4])
ok_xent = torch.allclose(softmax_cross_entropy(logits, labels),
                         torch.nn.functional.cross_entropy(logits, labels, reduction="none"))
w = torch.nn.Parameter(torch.full((16,), 3.0))
opt = FusedAdam([w], lr=0.1)
for _ in range(200):
    opt.zero_grad()
    (w ** 2).sum().backward()
    opt.step()
print(fused_ops.__version__, ok_ln, ok_xent, w.abs().max().item() < 0.1, _runtime.check_driver(),
      type(__import__("fused_ops.optim").optim.make_grad_scaler(enabled=False)).__module__)
"""


@pytest.mark.torch
def test_migrated_package_imports_and_runs_with_cpu_torch():
    need_torch()
    proc = subprocess.run([sys.executable, "-c", RUN, str(SAMPLE / "expected")], capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.split() == ["0.3.0", "True", "True", "True", "False", "torch.amp.grad_scaler"]
