"""Conda environment files, CI workflows and templated CUDA tags (PY060, PY064-PY069, and PY040-PY045 over a conda
`- pip:` sub-list) through the pipeline: the exact migrated text, the (code, line) findings, a second pass that
changes nothing; and the conda reader (migrate/deploy/conda_env.py) on the forms real files use."""
from __future__ import annotations

import re

import pytest

from migrate.contexts import CONTEXTS
from migrate.deploy.conda_env import conda_env
from migrate.deploy.dependencies import dependencies
from migrate.model import FileStatus
from migrate.options import Options
from tests.helpers import analysed_files

MINE = re.compile(r"PY0[4-6]\d")

ENVIRONMENT = """\
name: train
channels:
  - pytorch
  - nvidia
  - conda-forge
dependencies:
  - python=3.10
  - cudatoolkit=11.8
  - "nccl>=2.18"
  - pip
  - pip:
    - torch==2.3.1+cu121
    - torchvision==0.18.1
    - nvidia-cudnn-cu12==8.9.2.26
    - --extra-index-url=https://wheels.example.org/whl/cu121
    - einops
"""
ENVIRONMENT_SAFE = ENVIRONMENT.replace("+cu121", "+rocm6.0").replace("whl/cu121", "whl/rocm6.0")
ENVIRONMENT_UNSAFE = ENVIRONMENT_SAFE.replace("    - nvidia-cudnn-cu12==8.9.2.26\n", "")
WORKFLOW = """\
on: [push]
jobs:
  build:
    runs-on: [self-hosted, nvidia]
    container: nvidia/cuda:${{ matrix.cuda }}-devel-ubuntu22.04
    steps:
      - uses: N-Storm/cuda-toolkit@v0.2.28
      - run: |
          nvcc --version
          VERSION=$(nvcc --version | grep release)
          nvcc -arch=sm_90 -o app app.cu
      - run: pip install "torch==2.5.1+cu${{ matrix.cuda }}"
"""
WORKFLOW_SAFE = WORKFLOW.replace("          nvcc --version\n", "          hipcc --version\n")
TREE = {"environment.yml": ENVIRONMENT, ".github/workflows/build.yml": WORKFLOW}
SAFE = {"environment.yml": ENVIRONMENT_SAFE, ".github/workflows/build.yml": WORKFLOW_SAFE}
FINDINGS = {
    "environment.yml": [("PY065", 3), ("PY065", 4), ("PY064", 8), ("PY064", 9), ("PY041", 12), ("PY042", 14),
                        ("PY040", 15)],
    ".github/workflows/build.yml": [("PY060", 4), ("PY050", 5), ("PY067", 7), ("PY068", 9), ("PY068", 10),
                                    ("PY068", 11), ("PY066", 12)],
}


@pytest.fixture(scope="module")
def safe(tmp_path_factory):
    return analysed_files(tmp_path_factory.mktemp("safe"), TREE)


@pytest.mark.parametrize("path", sorted(TREE))
def test_safe_fixes_give_the_exact_text(safe, path):
    assert safe[path].new.decode() == SAFE[path]
    assert not [f for f in safe[path].findings if f.code in ("INP001", "INP007")]


@pytest.mark.parametrize("path", sorted(TREE))
def test_findings_by_code_and_line(safe, path):
    got = sorted((f.code, f.span.line) for f in safe[path].findings if MINE.fullmatch(f.code))
    assert got == sorted(FINDINGS[path])


def test_unsafe_fixes_drop_nvidia_wheels_from_the_pip_list(tmp_path):
    result = analysed_files(tmp_path, {"environment.yml": ENVIRONMENT}, unsafe_fixes=True)
    assert result["environment.yml"].new.decode() == ENVIRONMENT_UNSAFE


def test_second_pass_changes_nothing(tmp_path):
    again = analysed_files(tmp_path, SAFE)
    assert [p for p, r in again.items() if r.status is FileStatus.MIGRATED] == []


def context(path: str, text: str):
    return CONTEXTS["yaml"](path, text.encode(), Options(), None, "6.2")


@pytest.mark.parametrize(("path", "text", "is_conda"), [
    ("environment.yml", "dependencies:\n  - numpy\n", True),
    ("envs/conda-gpu.yaml", "dependencies: [numpy]\n", True),
    ("deps.yml", "channels: [conda-forge]\ndependencies:\n  - numpy\n", True),
    ("deps.yml", "dependencies:\n  - numpy\n", False),  # neither named like one nor with channels
    ("charts/app/Chart.yaml", "apiVersion: v2\ndependencies:\n  - name: redis\n    version: 17.0.0\n", False),
    ("environment.yml", "dependencies: none\n", False),
])
def test_what_counts_as_a_conda_environment(path, text, is_conda):
    assert (conda_env(context(path, text)) is not None) is is_conda


def test_conda_packages_and_channels_are_read_with_their_bytes():
    text = ("channels:\n  - 'nvidia'\ndependencies:\n  - pytorch::pytorch=2.1.0=py3.10_cuda11.8*\n"
            "  - \"cudnn >=8\"\n  - \"esc\\\\aped\"\n  - {pip: [numpy]}\n")
    env = conda_env(context("environment.yml", text))
    assert [(c.text, text[c.start:c.end]) for c in env.channels] == [("nvidia", "nvidia")]
    assert [(p.channel, p.name, p.rest) for p in env.packages] == [
        ("pytorch", "pytorch", "=2.1.0=py3.10_cuda11.8*"), ("", "cudnn", ">=8")]
    assert [e.text for e in env.pip] == ["numpy"]


@pytest.mark.parametrize("entry", ["--index-url https://x.example.org/whl/cu118", "-f https://x.example.org/whl/cu118",
                                   "--extra-index-url=https://x.example.org/whl/cu118"])
def test_pip_index_options_in_the_sub_list(entry):
    text = f"dependencies:\n  - pip:\n      - torch==2.0.1\n      - {entry}\n"
    deps, urls = dependencies(context("environment.yml", text))
    assert [d.name for d in deps] == ["torch"]
    assert [(u.url, text[u.start:u.end]) for u in urls] == [("https://x.example.org/whl/cu118",) * 2]
    assert deps[0].group == urls[0].group  # one pip list: the pin serves the index


@pytest.mark.parametrize(("text", "fixed"), [
    ("dependencies:\n  - pip: [torch==2.1.0+cu118, --extra-index-url https://wheels.example.org/whl/cu118]\n",
     "dependencies:\n  - pip: [torch==2.1.0+rocm5.6, --extra-index-url https://wheels.example.org/whl/rocm5.6]\n"),
    ("dependencies:\n  - pip: [nvidia-cublas-cu12, numpy]\n", "dependencies:\n  - pip: [numpy]\n"),
    ("dependencies:\n  - pip: [numpy, nvidia-cublas-cu12]\n", "dependencies:\n  - pip: [numpy]\n"),
])
def test_flow_pip_lists(tmp_path, text, fixed):
    result = analysed_files(tmp_path, {"environment.yml": text}, unsafe_fixes=True)
    assert result["environment.yml"].new.decode() == fixed
