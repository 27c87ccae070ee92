"""NVIDIA's CUDA image (`nvidia/cuda:<version>-<flavour>-<os>`, also `nvcr.io/nvidia/cuda`) as a Dockerfile stage's
`FROM`, or as the `image:` of a container in a Kubernetes pod spec (`containers`, `initContainers`,
`ephemeralContainers` of a Pod or of any pod template: Deployment, Job, CronJob's `jobTemplate`, ...), a docker
compose service, or a GitHub Actions job's `container:`, `services:` or a step's `uses: docker://...`; also the default of an `ARG` that a `FROM`
builds on (`ARG BASE_IMAGE=...` ... `FROM ${BASE_IMAGE}`), and a whole word of shell text (`docker run ...
nvidia/cuda:12.4.1-base-ubuntu22.04` in a script, a `RUN` or a CI step, an image in a bash array)
(migrate/deploy/container_images.py).

Why: NVIDIA's CUDA images hold the CUDA toolkit and libraries; nothing in them drives an AMD GPU. AMD publishes
`rocm/dev-ubuntu-<release>` images with ROCm installed on the same Ubuntu releases; their `-complete` tags add all
ROCm libraries, the counterpart of CUDA's `devel` and `cudnn` flavours.

Fix (safe): the image (name and tag) becomes the ROCm image of the same Ubuntu release from the table in
`migrate/deploy/rocm_images.py` (`-complete` for `devel`/`cudnn` flavours); `--platform`, `AS <name>` and the rest
of the line stay; in YAML only the scalar's text changes (its quotes and comment stay). Safe because the CUDA
image cannot serve an AMD GPU at all and the OS stays the same, but the finding is a warning: the ROCm version is
hipmigrate's choice, not one derived from the CUDA version (there is no such correspondence); pick the tag that
matches the host's driver and the ROCm your wheels need. Tags built from `ARG`s or variables (`${CUDA_VERSION}`,
`${{ matrix.cuda }}`), digests, a missing tag, operating systems with no `rocm/dev-*` image and YAML scalars written
with escapes are reported without a fix. Environment variables (`ENV CUDA_HOME=...`) are left to the
environment-variable rules.
"""
from __future__ import annotations

from migrate.deploy.container_images import image_refs
from migrate.deploy.rocm_images import is_cuda_image, rocm_dev_image
from migrate.model import Edit, Severity
from migrate.rule import DeployRule, Invalid, Valid


class NvidiaCudaBaseImage(DeployRule):
    code = "PY050"
    severity = Severity.WARNING
    file_kinds = ("docker", "yaml", "shell")
    example_path = "Dockerfile"
    examples = [
        Valid("FROM rocm/dev-ubuntu-22.04:6.4.1-complete\nRUN echo ok\n"),
        Valid("FROM ubuntu:22.04\n# FROM nvidia/cuda:12.1.1-devel-ubuntu22.04\n"),
        Invalid("FROM --platform=linux/amd64 nvidia/cuda:12.1.1-cudnn8-devel-ubuntu22.04 AS build\nRUN make\n",
                fixed="FROM --platform=linux/amd64 rocm/dev-ubuntu-22.04:6.4.1-complete AS build\nRUN make\n",
                line=1,
                message="nvidia/cuda:12.1.1-cudnn8-devel-ubuntu22.04 is NVIDIA's CUDA image: "
                        "rocm/dev-ubuntu-22.04:6.4.1-complete is the ROCm image of the same Ubuntu; its ROCm version "
                        "is a choice: check it against the host's driver and the ROCm your wheels need"),
        Invalid("FROM docker.io/nvidia/cuda:12.4.1-runtime-ubuntu24.04\n",
                fixed="FROM rocm/dev-ubuntu-24.04:7.1.1\n"),
        # no line break after the last line (tree-sitter-dockerfile rejects it; the file is read through a copy)
        Invalid("FROM nvidia/cuda:12.1.1-devel-ubuntu22.04\nWORKDIR /app\nCMD [\"/bin/bash\"]",
                fixed="FROM rocm/dev-ubuntu-22.04:6.4.1-complete\nWORKDIR /app\nCMD [\"/bin/bash\"]", line=1),
        Valid("apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  annotations:\n"
              "    built-from: nvidia/cuda:12.1.1-devel-ubuntu22.04\nspec:\n  containers:\n"
              "    - name: main\n      image: rocm/dev-ubuntu-22.04:6.4.1\n"
              "      args: [\"--base\", \"nvidia/cuda:12.1.1-devel-ubuntu22.04\"]\n", path="pod.yaml"),
        Invalid("apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: nightly\nspec:\n"
                "  schedule: \"0 3 * * *\"\n  jobTemplate:\n    spec:\n      template:\n        spec:\n"
                "          initContainers:\n            - name: warmup\n"
                "              image: \"nvidia/cuda:12.4.1-runtime-ubuntu22.04\"  # CUDA runtime only\n"
                "          containers:\n            - name: train\n"
                "              image: registry.example.org/trainer:1.0\n",
                fixed="apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: nightly\nspec:\n"
                      "  schedule: \"0 3 * * *\"\n  jobTemplate:\n    spec:\n      template:\n        spec:\n"
                      "          initContainers:\n            - name: warmup\n"
                      "              image: \"rocm/dev-ubuntu-22.04:6.4.1\"  # CUDA runtime only\n"
                      "          containers:\n            - name: train\n"
                      "              image: registry.example.org/trainer:1.0\n",
                path="cronjob.yaml", line=13),
        Invalid("services:\n  build:\n    image: nvidia/cuda:12.1.1-cudnn8-devel-ubuntu20.04\n  cache:\n"
                "    image: redis:7\n",
                fixed="services:\n  build:\n    image: rocm/dev-ubuntu-20.04:6.1.1-complete\n  cache:\n"
                      "    image: redis:7\n", path="docker-compose.yml", line=3),
        Invalid("jobs:\n  test:\n    runs-on: [self-hosted, gpu]\n"
                "    container: nvcr.io/nvidia/cuda:12.4.1-devel-ubuntu22.04\n    services:\n      sidecar:\n"
                "        image: 'nvidia/cuda:12.4.1-base-ubuntu24.04'\n",
                fixed="jobs:\n  test:\n    runs-on: [self-hosted, gpu]\n"
                      "    container: rocm/dev-ubuntu-22.04:6.4.1-complete\n    services:\n      sidecar:\n"
                      "        image: 'rocm/dev-ubuntu-24.04:7.1.1'\n", path=".github/workflows/gpu.yml", line=4),
        Invalid("jobs:\n  test:\n    container:\n      image: nvidia/cuda:${{ matrix.cuda }}-devel-ubuntu22.04\n",
                path=".github/workflows/gpu.yml", line=4,
                message="nvidia/cuda:${{ matrix.cuda }}-devel-ubuntu22.04 is NVIDIA's CUDA image: replace it with a "
                        "rocm/dev-ubuntu-* image (rocm/dev-ubuntu-22.04:6.4.1-complete, for example) by hand"),
        Invalid("stages: [test]\nimage: nvidia/cuda:12.4.1-devel-ubuntu22.04\n"
                "unit:\n  stage: test\n  image:\n    name: \"nvidia/cuda:12.1.1-runtime-ubuntu20.04\"\n"
                "  services:\n    - redis:7\n    - name: nvidia/cuda:12.4.1-base-ubuntu24.04\n  script: [make test]\n",
                fixed="stages: [test]\nimage: rocm/dev-ubuntu-22.04:6.4.1-complete\n"
                      "unit:\n  stage: test\n  image:\n    name: \"rocm/dev-ubuntu-20.04:6.1.1\"\n"
                      "  services:\n    - redis:7\n    - name: rocm/dev-ubuntu-24.04:7.1.1\n  script: [make test]\n",
                path=".gitlab-ci.yml", line=2),
        Invalid("replicaCount: 1\nimage:\n  repository: nvidia/cuda\n  tag: \"12.4.1-runtime-ubuntu22.04\"\n"
                "  pullPolicy: IfNotPresent\n", path="charts/worker/values.yaml", line=3,
                message="nvidia/cuda:12.4.1-runtime-ubuntu22.04 is NVIDIA's CUDA image: rocm/dev-ubuntu-22.04:6.4.1 "
                        "is the ROCm image of the same Ubuntu; its ROCm version is a choice: check it against the "
                        "host's driver and the ROCm your wheels need"),
        Valid("image:\n  repository: rocm/dev-ubuntu-22.04\n  tag: 6.4.1\nredis:\n  repository: redis\n  tag: '7'\n",
              path="values.yaml"),
        Invalid("ARG BASE_IMAGE=nvidia/cuda:12.4.1-devel-ubuntu22.04\nFROM ${BASE_IMAGE} AS build\nRUN make\n"
                "FROM $BASE_IMAGE\n",
                fixed="ARG BASE_IMAGE=rocm/dev-ubuntu-22.04:6.4.1-complete\nFROM ${BASE_IMAGE} AS build\nRUN make\n"
                      "FROM $BASE_IMAGE\n", line=1),
        Valid("ARG BASE_IMAGE=nvidia/cuda:12.4.1-devel-ubuntu22.04\nFROM ubuntu:22.04\n"
              "LABEL built.with=$BASE_IMAGE\n"),  # an ARG no FROM builds on
        Invalid("#!/bin/bash\n# one image per CUDA release we test\n"
                "IMAGES=(\"nvidia/cuda:12.1.1-devel-ubuntu22.04\" nvidia/cuda:12.4.1-runtime-ubuntu22.04)\n"
                "for image in \"${IMAGES[@]}\"; do\n  docker run --rm \"$image\" ./run_tests.sh\ndone\n",
                fixed="#!/bin/bash\n# one image per CUDA release we test\n"
                      "IMAGES=(\"rocm/dev-ubuntu-22.04:6.4.1-complete\" rocm/dev-ubuntu-22.04:6.4.1)\n"
                      "for image in \"${IMAGES[@]}\"; do\n  docker run --rm \"$image\" ./run_tests.sh\ndone\n",
                path="ci/test_images.sh", line=3),
        Invalid("jobs:\n  smoke:\n    runs-on: [self-hosted, gpu]\n    steps:\n"
                "      - run: docker run --rm --gpus all nvidia/cuda:12.4.1-base-ubuntu22.04 nvidia-smi\n",
                fixed="jobs:\n  smoke:\n    runs-on: [self-hosted, gpu]\n    steps:\n"
                      "      - run: docker run --rm --gpus all rocm/dev-ubuntu-22.04:6.4.1 nvidia-smi\n",
                path=".github/workflows/smoke.yml", line=5),
        Invalid("jobs:\n  check:\n    steps:\n      - uses: actions/checkout@v4\n"
                "      - uses: docker://nvidia/cuda:12.4.1-devel-ubuntu22.04  # the toolchain\n        with:\n"
                "          args: make test\n",
                fixed="jobs:\n  check:\n    steps:\n      - uses: actions/checkout@v4\n"
                      "      - uses: docker://rocm/dev-ubuntu-22.04:6.4.1-complete  # the toolchain\n        with:\n"
                      "          args: make test\n", path=".github/workflows/ci.yml", line=5),
        Invalid("ARG CUDA=12.1.1\nFROM nvidia/cuda:${CUDA}-devel-ubuntu22.04\n", line=2,
                message="nvidia/cuda:${CUDA}-devel-ubuntu22.04 is NVIDIA's CUDA image: replace it with a "
                        "rocm/dev-ubuntu-* image (rocm/dev-ubuntu-22.04:6.4.1-complete, for example) by hand"),
    ]

    def check(self, ctx):
        for ref in image_refs(ctx):
            if not is_cuda_image(ref.name):
                continue
            head = f"{ref.text} is NVIDIA's CUDA image"
            plain = ref.tag and not ref.digest and not ref.built
            target = rocm_dev_image(ref.tag) if plain else None
            if target is None:
                yield self.finding(ctx, ref.start, ref.end, f"{head}: replace it with a rocm/dev-ubuntu-* "
                                   "image (rocm/dev-ubuntu-22.04:6.4.1-complete, for example) by hand")
                continue
            title = f"Build from {target}" if ref.syntax == "docker" else f"Run {target}"
            yield self.finding(ctx, ref.start, ref.end,
                               f"{head}: {target} is the ROCm image of the same Ubuntu; its ROCm version is a choice: "
                               "check it against the host's driver and the ROCm your wheels need",
                               edits=[Edit(ref.start, ref.end, target)] if ref.editable else [], title=title)
