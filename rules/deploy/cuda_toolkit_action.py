"""A GitHub Actions step that installs the CUDA toolkit through an action: any `uses:` whose action name holds
`cuda-toolkit`, `setup-cuda` or `install-cuda` (`Jimver/cuda-toolkit@v0.2.16`, `N-Storm/cuda-toolkit@v0.2.28`,
`./.github/actions/setup-cuda`), in a workflow's steps or a composite action's.

Why: such an action downloads NVIDIA's installer or packages onto the runner; on an AMD machine nothing uses them,
and the build that follows still compiles for NVIDIA. The ROCm counterpart is a job that runs in a ROCm image
(`container: rocm/dev-ubuntu-22.04:6.4.1-complete`, hipcc and the HIP libraries installed) or a step that installs
ROCm's packages from AMD's repository (`sudo apt-get install -y rocm-hip-sdk`), checked with `hipcc --version`.

No fix: the step's `with:` inputs (CUDA version, sub-packages, method) have no ROCm counterpart to carry over, and
which of the two forms suits the job depends on its runner.
"""
from __future__ import annotations

import re

from migrate.deploy import yaml_nodes as y
from migrate.model import Severity
from migrate.rule import DeployRule, Invalid, Valid

CUDA_ACTION = re.compile(r"cuda-toolkit|setup-cuda|install-cuda", re.I)
ROCM = ("run the job in a ROCm image (container: rocm/dev-ubuntu-22.04:6.4.1-complete) or install ROCm's packages "
        "(sudo apt-get install -y rocm-hip-sdk, from AMD's repository), and check it with hipcc --version")


def action_name(uses: str) -> str:
    """`Jimver/cuda-toolkit` of `Jimver/cuda-toolkit@v0.2.16`; a local action's folder name."""
    return uses.split("@", 1)[0].rstrip("/").rsplit("/", 1)[-1] if uses.startswith(".") else uses.split("@", 1)[0]


class CudaToolkitAction(DeployRule):
    code = "PY067"
    severity = Severity.WARNING
    fixable = False
    file_kind = "yaml"
    example_path = ".github/workflows/build.yml"
    examples = [
        Valid("jobs:\n  build:\n    runs-on: ubuntu-22.04\n    container: rocm/dev-ubuntu-22.04:6.4.1-complete\n"
              "    steps:\n      - uses: actions/checkout@v4\n      - run: hipcc --version\n"
              "      - name: cuda-toolkit\n        run: echo skipped\n"),
        Invalid("jobs:\n  build:\n    runs-on: ubuntu-22.04\n    steps:\n      - uses: actions/checkout@v4\n"
                "      - uses: Jimver/cuda-toolkit@v0.2.16\n        id: cuda-toolkit\n        with:\n"
                "          cuda: '12.1.0'\n      - run: nvcc -V\n", line=6,
                message="Jimver/cuda-toolkit@v0.2.16 installs NVIDIA's CUDA toolkit on the runner, which AMD GPUs do "
                        "not use: run the job in a ROCm image (container: rocm/dev-ubuntu-22.04:6.4.1-complete) or "
                        "install ROCm's packages (sudo apt-get install -y rocm-hip-sdk, from AMD's repository), and "
                        "check it with hipcc --version"),
        Invalid("jobs:\n  build:\n    steps:\n      - {uses: 'N-Storm/cuda-toolkit@v0.2.28', with: {cuda: '12.8.0'}}\n",
                line=4),
        Invalid("name: setup\nruns:\n  using: composite\n  steps:\n    - uses: ./.github/actions/setup-cuda\n",
                path=".github/actions/setup/action.yml", line=5),
        # a project's own action given a CUDA version (detectron2's GPU job)
        Invalid("jobs:\n  gpu:\n    steps:\n      - uses: ./.github/actions/install_linux_gpu_dep\n        with:\n"
                "          cuda-version: ${{ matrix.cuda }}\n", path=".github/workflows/ci.yml", line=6),
        Valid("jobs:\n  t:\n    steps:\n      - uses: ./.github/actions/install_deps\n        with:\n"
              "          torch-version: '2.4.1'\n", path=".github/workflows/ci.yml"),
    ]

    def check(self, ctx):
        if b"uses" not in ctx.data:
            return
        data = ctx.data
        for pair in ctx.nodes(*y.PAIRS):
            if y.key(data, pair) != "uses":
                continue
            value = y.value_node(pair)
            uses = y.scalar(data, value)
            if not uses:
                continue
            if CUDA_ACTION.search(action_name(uses.strip())):
                yield self.finding(ctx, value.start_byte, value.end_byte,
                                   f"{uses.strip()} installs NVIDIA's CUDA toolkit on the runner, which AMD GPUs do "
                                   f"not use: {ROCM}")
                continue
            inputs = y.get(data, pair.parent, "with")
            given = y.get(data, y.value_node(inputs), "cuda-version") if inputs is not None else None
            if given is not None:  # another action told which CUDA to set up (a project's own install action)
                yield self.finding(ctx, given.start_byte, given.end_byte,
                                   f"{uses.strip()} is given a CUDA version (cuda-version): it sets up NVIDIA's CUDA "
                                   f"on the runner, which AMD GPUs do not use: {ROCM}")
