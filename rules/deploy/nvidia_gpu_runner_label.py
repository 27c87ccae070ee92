"""GitHub Actions jobs whose `runs-on` labels name NVIDIA or CUDA GPU runners (`[self-hosted, gpu, nvidia]`,
`linux-gpu-a100`, `ubuntu-22.04-cuda12`, `gpu-t4-4-core`), as a string, a list, or a `labels:` list; GitLab CI jobs
(and `default:`) whose `tags:` name such runners (`tags: [saas-linux-medium-amd64-gpu-standard, nvidia]`).

Why: the job then runs on an NVIDIA machine, so the migrated code is never run on an AMD GPU by CI (and steps such
as `nvidia-smi` keep passing there). A label is taken as NVIDIA's when one of its `-`/`_`/`.`-separated words is
`nvidia`, `cuda`, `cuda<N>` or `cu<NNN>`, `tesla`, `rtx`, or an NVIDIA data-center GPU (`a100`, `h100`, `h200`,
`v100`, `t4`, `l4`, `l40s`, `a10g`, ...). Plain `gpu` says nothing about the vendor and is left alone, unless the
job's steps run `nvidia-smi` or `nvcc` (LLaMA-Factory's `linux-x86_64-gpu-2`). A label
taken from the build matrix (`runs-on: ${{ matrix.runner }}`) is read in the job's `strategy.matrix`: the values of
that key and of its `include:` entries (`${{ matrix.gpu.runner }}`: the `runner` of each of `gpu`'s entries), each
reported where it is written.

No fix: which runner has an AMD GPU, and what it is labelled, depends on the project (AMD GPU runners are usually
self-hosted, labelled with the GPU or its gfx target).
"""
from __future__ import annotations

import re

from migrate.deploy import yaml_nodes as y
from migrate.model import Severity
from migrate.rule import DeployRule, Invalid, Valid

NVIDIA_WORDS = {"nvidia", "cuda", "tesla", "rtx", "a100", "a800", "h100", "h800", "h200", "b200", "gb200", "v100",
                "p100", "k80", "t4", "l4", "l40", "l40s", "a10", "a10g", "a40", "a6000", "dgx"}
_WORD = re.compile(r"[-_.\s/]+")
NVIDIA_TOOLS = re.compile(rb"(?<![\w-])(nvidia-smi|nvcc)(?![\w-])")
_CUDA_VERSION = re.compile(r"cuda\d+(\.\d+)*|cu\d{3}")
AMD_LABEL = ("(label the job with your AMD runner's labels: usually self-hosted, named after its GPU or gfx target, "
             "e.g. mi300x or gfx942)")
_MATRIX = re.compile(r"\$\{\{\s*matrix\.([\w-]+)(?:\.([\w-]+))?\s*\}\}")


def names_nvidia(label: str) -> bool:
    return any(w in NVIDIA_WORDS or _CUDA_VERSION.fullmatch(w) for w in _WORD.split(label.lower()))


class NvidiaGpuRunnerLabel(DeployRule):
    code = "PY060"
    severity = Severity.WARNING
    fixable = False
    file_kind = "yaml"
    example_path = ".github/workflows/gpu.yml"
    examples = [
        Valid("jobs:\n  test:\n    runs-on: [self-hosted, gpu, mi300x]\n"),
        Valid("jobs:\n  test:\n    runs-on: ubuntu-latest\n"),
        Invalid("on: push\njobs:\n  gpu-tests:\n    runs-on: [self-hosted, gpu, nvidia]\n    steps:\n"
                "      - run: nvidia-smi\n", line=4,
                message="job gpu-tests runs on runner label nvidia, an NVIDIA GPU runner: the migrated code needs a "
                        "runner with an AMD GPU (label the job with your AMD runner's labels: usually self-hosted, "
                        "named after its GPU or gfx target, e.g. mi300x or gfx942)"),
        Invalid("jobs:\n  bench:\n    runs-on: linux-gpu-a100\n", line=3),
        Invalid("jobs:\n  bench:\n    runs-on:\n      group: gpus\n      labels:\n        - cuda12\n", line=6),
        Invalid("stages: [test]\ndefault:\n  tags: [docker]\ngpu-test:\n  stage: test\n  tags:\n    - gpu\n"
                "    - nvidia-a100\n  script:\n    - make test\n", path=".gitlab-ci.yml", line=8,
                message="job gpu-test runs on runner tag nvidia-a100, an NVIDIA GPU runner: the migrated code needs "
                        "a runner with an AMD GPU (label the job with your AMD runner's labels: usually self-hosted, "
                        "named after its GPU or gfx target, e.g. mi300x or gfx942)"),
        Invalid("jobs:\n  test:\n    strategy:\n      matrix:\n        runner: [ubuntu-latest, linux-gpu-h100]\n"
                "        include:\n          - runner: [self-hosted, rtx4090]\n    runs-on: ${{ matrix.runner }}\n",
                line=5),
        Valid("gpu-test:\n  tags: [gpu, mi300x]\n  script: [make test]\nvariables:\n  tags: nvidia\n",
              path=".gitlab-ci.yml"),
        # a field of the matrix's mappings (xformers' GPU workflow)
        Invalid("jobs:\n  test:\n    strategy:\n      matrix:\n        gpu:\n          - runner: \"h100-256GB\"\n"
                "            sm: \"9.0a\"\n          - runner: \"4-core-ubuntu-gpu-t4\"\n            sm: \"7.5\"\n"
                "    runs-on: ${{ matrix.gpu.runner }}\n", line=6),
        # a plain gpu label whose job runs NVIDIA's tools
        Invalid("jobs:\n  tests:\n    runs-on: linux-x86_64-gpu-2\n    steps:\n      - run: nvidia-smi\n", line=3),
        Valid("jobs:\n  tests:\n    runs-on: linux-x86_64-gpu-2\n    steps:\n      - run: rocm-smi\n"),
    ]

    def check(self, ctx):
        data = ctx.data
        for top in y.documents(ctx.root):
            yield from self._gitlab(ctx, top)
            jobs = y.get(data, top, "jobs")
            for job in y.pairs(y.value_node(jobs)) if jobs is not None else []:
                runs_on = y.get(data, y.value_node(job), "runs-on")
                if runs_on is None:
                    continue
                value = y.value_node(runs_on)
                labels = y.get(data, value, "labels")
                nodes = [value] if y.scalar(data, value) is not None else y.items(value)
                if labels is not None:
                    target = y.value_node(labels)
                    nodes = [target] if y.scalar(data, target) is not None else y.items(target)
                steps = y.get(data, y.value_node(job), "steps")
                probes = steps is not None and NVIDIA_TOOLS.search(data, steps.start_byte, steps.end_byte) is not None
                for node in [n for node in nodes for n in _matrix_values(data, y.value_node(job), node)]:
                    label = y.scalar(data, node)
                    if label and names_nvidia(label):
                        yield self.finding(ctx, node.start_byte, node.end_byte,
                                           f"job {y.key(data, job)} runs on runner label {label}, an NVIDIA GPU "
                                           f"runner: the migrated code needs a runner with an AMD GPU {AMD_LABEL}")
                    elif label and probes and "gpu" in _WORD.split(label.lower()):
                        yield self.finding(ctx, node.start_byte, node.end_byte,
                                           f"job {y.key(data, job)} runs on GPU runner label {label} and its steps run "
                                           f"NVIDIA's tools (nvidia-smi, nvcc), so the runner has an NVIDIA GPU: the "
                                           f"migrated code needs a runner with an AMD GPU {AMD_LABEL}")

    def _gitlab(self, ctx, top):
        """GitLab CI jobs (top-level mappings with a `script`, `stage`, `extends` or `trigger`) and `default:`."""
        data = ctx.data
        for job in y.pairs(top):
            body = y.value_node(job)
            name = y.key(data, job)
            if y.mapping(body) is None or not (name == "default" or any(
                    y.get(data, body, k) is not None for k in ("script", "stage", "extends", "trigger"))):
                continue
            tags = y.get(data, body, "tags")
            for node in y.items(y.value_node(tags)) if tags is not None else []:
                label = y.scalar(data, node)
                if label and names_nvidia(label):
                    yield self.finding(ctx, node.start_byte, node.end_byte,
                                       f"job {name} runs on runner tag {label}, an NVIDIA GPU runner: the migrated "
                                       f"code needs a runner with an AMD GPU {AMD_LABEL}")


def _matrix_values(data: bytes, job, node) -> list:
    """`node` itself, or for `${{ matrix.NAME }}` the scalars the job's strategy.matrix gives NAME (its list, and
    the values of its include: entries, scalars or lists); for `${{ matrix.NAME.FIELD }}`, FIELD of each mapping
    NAME gives."""
    found = _MATRIX.fullmatch((y.scalar(data, node) or "").strip())
    if found is None:
        return [node]
    strategy = y.get(data, job, "strategy")
    matrix = y.get(data, y.value_node(strategy), "matrix") if strategy is not None else None
    if matrix is None:
        return []
    values = []
    own = y.get(data, y.value_node(matrix), found[1])
    include = y.get(data, y.value_node(matrix), "include")
    entries = [y.get(data, item, found[1]) for item in y.items(y.value_node(include))] if include is not None else []
    for pair in [own, *entries]:
        if pair is None:
            continue
        value = y.value_node(pair)
        items = [value] if y.scalar(data, value) is not None else y.items(value) or [value]
        if found[2]:  # matrix.gpu.runner: the runner field of each of gpu's mappings
            fields = [y.get(data, item, found[2]) for item in items]
            items = [y.value_node(f) for f in fields if f is not None]
        for item in items:
            values.extend([item] if y.scalar(data, item) is not None else y.items(item))
    return values
