"""GPU packages whose PyPI releases are CUDA builds with no ROCm wheel under that name: `flash-attn`, `xformers`,
`triton`, `bitsandbytes`, `vllm`, `mamba-ssm`, `causal-conv1d`, pinned or not, in a requirements file, pyproject.toml,
or a `pip install` line of a shell script, a Dockerfile or a CI step.

Why: pip resolves them to the CUDA build (or to a source package that compiles CUDA kernels), which either fails to
install against a ROCm build of torch or installs and fails at import or first call on an AMD GPU. Each has a ROCm
route, named in the message: a ROCm wheel on another index, a source build against ROCm, a differently named package,
or an image that ships it. The routes are as these projects document them; check the release you pin against the
ROCm you run.

Reported (WARNING), never silently kept; no fix: the route changes the install step (another index, build variables,
a source checkout), which a line-for-line rewrite cannot make safely. Pins of CUDA builds by local version or wheel URL
(`+cu121`, `...cu122torch2.3...whl`) are PY044's.
"""
from __future__ import annotations

from migrate.deploy.dependencies import dependencies
from migrate.deploy.rocm_wheels import cuda_build
from migrate.model import Severity
from migrate.rule import DeployRule, Invalid, Valid

ROUTES = {
    "flash-attn": "its PyPI release is a source package that compiles CUDA kernels (and its prebuilt wheels are CUDA "
                  "builds); on ROCm build it from source against a ROCm torch (FlashAttention's composable_kernel "
                  "backend for MI200/MI300, GPU_ARCHS naming the targets), or use a rocm/pytorch image that ships it",
    "xformers": "its PyPI wheels are CUDA builds; recent releases publish ROCm wheels on PyTorch's ROCm index (pip "
                "install xformers --index-url https://download.pytorch.org/whl/rocm6.x, matching your torch), else "
                "build it from source against ROCm",
    "triton": "PyPI's triton is the build PyTorch's CUDA wheels depend on; ROCm builds of torch bring their own "
              "(pytorch-triton-rocm, from the ROCm index): drop this pin, or pin pytorch-triton-rocm of the release "
              "your torch names",
    "bitsandbytes": "its wheels were CUDA only for long; ROCm support comes with its multi-backend releases or a build "
                    "from source with -DCOMPUTE_BACKEND=hip: check that the release you pin supports ROCm",
    "vllm": "vLLM's PyPI wheels are CUDA builds; on ROCm build it from source (its ROCm instructions) or run the "
            "rocm/vllm image",
    "mamba-ssm": "its wheels are CUDA builds; on ROCm build it from source against a ROCm torch",
    "causal-conv1d": "its wheels are CUDA builds; on ROCm build it from source against a ROCm torch",
}


class PackageWithoutRocmWheel(DeployRule):
    code = "PY045"
    severity = Severity.WARNING
    fixable = False
    file_kinds = ("requirements", "pyproject", "shell", "docker", "yaml")
    example_path = "requirements.txt"
    examples = [
        Valid("torch==2.4.1\nnumpy\npytorch-triton-rocm==3.0.0\n"),
        Valid("flash-attn @ https://wheels.example.org/flash_attn-2.5.8+cu122torch2.3-cp310-cp310-linux_x86_64.whl\n"),
        Invalid("torch==2.3.1\nflash-attn==2.6.3\nxformers>=0.0.26\n", line=2,
                message="flash-attn: its PyPI release is a source package that compiles CUDA kernels (and its prebuilt "
                        "wheels are CUDA builds); on ROCm build it from source against a ROCm torch (FlashAttention's "
                        "composable_kernel backend for MI200/MI300, GPU_ARCHS naming the targets), or use a "
                        "rocm/pytorch image that ships it"),
        Invalid("[project]\ndependencies = [\"torch>=2.3\", \"triton==2.3.1\", \"bitsandbytes>=0.43\"]\n",
                path="pyproject.toml", line=2),
        Invalid("FROM rocm/pytorch:latest\nRUN pip install --no-cache-dir vllm==0.6.3 && pip install mamba-ssm\n",
                path="Dockerfile", line=2),
    ]

    def check(self, ctx):
        deps, _ = dependencies(ctx)
        for dep in deps:
            route = ROUTES.get(dep.key)
            if route is None or dep.url or any(cuda_build(v.text) for v in dep.versions):
                continue  # a CUDA build named by URL or local version: PY044
            yield self.finding(ctx, dep.start, dep.end, f"{dep.name}: {route}")
