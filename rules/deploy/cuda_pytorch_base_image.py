"""A CUDA build of PyTorch's images (`pytorch/pytorch:<ver>-cuda<x>-...`, NVIDIA's NGC
`nvcr.io/nvidia/pytorch:<yy.mm>-py3`) as a Dockerfile stage's `FROM`, or as the `image:` of a container in a
Kubernetes pod spec (of a Pod or of any pod template), a docker compose service, or a GitHub Actions job's
`container:` or `services:`; also the default of an `ARG` that a `FROM` builds on, and a whole word of shell text
(`docker run ... nvcr.io/nvidia/pytorch:24.01-py3`, an image in a bash array) (migrate/deploy/container_images.py).

Why: those images ship torch compiled for CUDA; on an AMD GPU it sees no device. AMD publishes `rocm/pytorch`
images with a ROCm build of PyTorch; their tags name the ROCm, Ubuntu, Python and PyTorch versions
(`rocm/pytorch:rocm6.2_ubuntu22.04_py3.10_pytorch_release_2.3.0`).

Fix (unsafe, with `--unsafe-fixes`): the image becomes `rocm/pytorch:<tag>`, the tag chosen from the torch release
in the original tag (table in `migrate/deploy/rocm_images.py`), else `latest`; `--platform`, `AS <name>` and the
rest of the line stay; in YAML only the scalar's text changes (its quotes and comment stay). References with a
digest, built from variables, or written with escapes are reported without a fix. Unsafe because the images differ
beyond the GPU: Python version, OS release, where Python lives, and NGC's extras (Apex, Transformer Engine, DALI)
are not in `rocm/pytorch`; pin a tag after checking.
"""
from __future__ import annotations

from migrate.deploy.container_images import image_refs
from migrate.deploy.rocm_images import is_cuda_pytorch_image, rocm_pytorch_image
from migrate.model import Applicability, Edit, Severity
from migrate.rule import DeployRule, Invalid, Valid


class CudaPytorchBaseImage(DeployRule):
    code = "PY051"
    severity = Severity.WARNING
    applicability = Applicability.UNSAFE
    file_kinds = ("docker", "yaml", "shell")
    example_path = "Dockerfile"
    examples = [
        Valid("FROM pytorch/pytorch:2.3.0-cpu\nFROM rocm/pytorch:latest\n"),
        Invalid("FROM pytorch/pytorch:2.3.0-cuda12.1-cudnn8-devel AS train\n", line=1,
                message="pytorch/pytorch:2.3.0-cuda12.1-cudnn8-devel ships a CUDA build of PyTorch: "
                        "rocm/pytorch:rocm6.2_ubuntu22.04_py3.10_pytorch_release_2.3.0 has its ROCm build (Python, OS "
                        "and extras differ: check, and pin a tag)"),
        Invalid("FROM pytorch/pytorch:2.3.0-cuda12.1-cudnn8-devel AS train\n",
                fixed="FROM rocm/pytorch:rocm6.2_ubuntu22.04_py3.10_pytorch_release_2.3.0 AS train\n",
                options=(("unsafe_fixes", True),)),
        Valid("services:\n  app:\n    build: .\n    image: trainer:cuda12\n"
              "    command: [\"echo\", \"pytorch/pytorch:2.3.0-cuda12.1-cudnn8-runtime\"]\n", path="compose.yaml"),
        Invalid("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: serve\nspec:\n  template:\n    spec:\n"
                "      containers:\n        - name: serve\n"
                "          image: pytorch/pytorch:2.4.0-cuda12.1-cudnn9-runtime # pinned\n",
                fixed="apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: serve\nspec:\n  template:\n"
                      "    spec:\n      containers:\n        - name: serve\n"
                      "          image: rocm/pytorch:rocm6.3.2_ubuntu22.04_py3.10_pytorch_release_2.4.0 # pinned\n",
                path="deploy.yaml", line=10, options=(("unsafe_fixes", True),)),
        Invalid("jobs:\n  test:\n    container:\n      image: \"nvcr.io/nvidia/pytorch:24.01-py3\"\n"
                "      options: --ipc=host\n",
                fixed="jobs:\n  test:\n    container:\n      image: \"rocm/pytorch:latest\"\n"
                      "      options: --ipc=host\n",
                path=".github/workflows/test.yml", line=4, options=(("unsafe_fixes", True),)),
        Invalid("ARG BASE_IMAGE=nvcr.io/nvidia/pytorch:24.01-py3\nFROM ${BASE_IMAGE}\nRUN pip install -e .\n",
                fixed="ARG BASE_IMAGE=rocm/pytorch:latest\nFROM ${BASE_IMAGE}\nRUN pip install -e .\n", line=1,
                options=(("unsafe_fixes", True),)),
        Invalid("#!/bin/sh\ndocker run --gpus all --ipc=host -v \"$PWD\":/ws -w /ws nvcr.io/nvidia/pytorch:24.01-py3 \\\n"
                "    python train.py\n", path="scripts/train_in_docker.sh", line=2,
                message="nvcr.io/nvidia/pytorch:24.01-py3 ships a CUDA build of PyTorch: rocm/pytorch:latest has its "
                        "ROCm build (Python, OS and extras differ: check, and pin a tag)"),
        Valid("#!/bin/sh\n# was: docker run nvcr.io/nvidia/pytorch:24.01-py3\ndocker run rocm/pytorch:latest python t.py\n",
              path="run.sh"),
        Invalid("FROM nvcr.io/nvidia/pytorch:24.01-py3\nRUN pip install -e .\n",
                fixed="FROM rocm/pytorch:latest\nRUN pip install -e .\n", options=(("unsafe_fixes", True),)),
    ]

    def check(self, ctx):
        for ref in image_refs(ctx):
            if not is_cuda_pytorch_image(ref.name, ref.tag):
                continue
            target = rocm_pytorch_image(ref.tag)
            fixable = ref.editable and not ref.digest and not ref.built
            title = f"Build from {target}" if ref.syntax == "docker" else f"Run {target}"
            yield self.finding(ctx, ref.start, ref.end,
                               f"{ref.text} ships a CUDA build of PyTorch: {target} has its ROCm build "
                               "(Python, OS and extras differ: check, and pin a tag)",
                               edits=[Edit(ref.start, ref.end, target)] if fixable else [], title=title)
