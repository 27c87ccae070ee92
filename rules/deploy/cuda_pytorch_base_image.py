"""A Dockerfile stage built from a CUDA build of PyTorch's images: `FROM pytorch/pytorch:<ver>-cuda<x>-...` or
NVIDIA's NGC `FROM nvcr.io/nvidia/pytorch:<yy.mm>-py3`.

Why: those images ship torch compiled for CUDA; on an AMD GPU it sees no device. AMD publishes `rocm/pytorch`
images with a ROCm build of PyTorch; their tags name the ROCm, Ubuntu, Python and PyTorch versions
(`rocm/pytorch:rocm6.2_ubuntu22.04_py3.10_pytorch_release_2.3.0`).

Fix (unsafe, with `--unsafe-fixes`): the image becomes `rocm/pytorch:<tag>`, the tag chosen from the torch release
in the original tag (table in `migrate/deploy/rocm_images.py`), else `latest`; `--platform`, `AS <name>` and the
rest of the line stay. Unsafe because the images differ beyond the GPU: Python version, OS release, where Python
lives, and NGC's extras (Apex, Transformer Engine, DALI) are not in `rocm/pytorch`; pin a tag after checking.
"""
from __future__ import annotations

from migrate.deploy.rocm_images import is_cuda_pytorch_image, rocm_pytorch_image
from migrate.model import Applicability, Edit, RuleKind, Severity
from migrate.rule import FileRule, Invalid, Valid


class CudaPytorchBaseImage(FileRule):
    code = "PY051"
    kind = RuleKind.PYTHON
    severity = Severity.WARNING
    applicability = Applicability.UNSAFE
    file_kind = "docker"
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
        Invalid("FROM nvcr.io/nvidia/pytorch:24.01-py3\nRUN pip install -e .\n",
                fixed="FROM rocm/pytorch:latest\nRUN pip install -e .\n", options=(("unsafe_fixes", True),)),
    ]

    def check(self, ctx):
        for instruction in ctx.nodes("from_instruction"):
            spec = next((c for c in instruction.children if c.type == "image_spec"), None)
            if spec is None:
                continue
            name = next((c for c in spec.children if c.type == "image_name"), None)
            tag = next((c for c in spec.children if c.type == "image_tag"), None)
            tag_text = ctx.node_text(tag)[1:] if tag is not None else ""
            if name is None or not is_cuda_pytorch_image(ctx.node_text(name), tag_text):
                continue
            target = rocm_pytorch_image(tag_text)
            fixable = not any(c.type in ("image_digest", "expansion") for c in spec.children) and not (
                tag is not None and any(c.type == "expansion" for c in tag.children))
            yield self.finding(ctx, spec.start_byte, spec.end_byte,
                               f"{ctx.node_text(spec)} ships a CUDA build of PyTorch: {target} has its ROCm build "
                               "(Python, OS and extras differ: check, and pin a tag)",
                               edits=[Edit(spec.start_byte, spec.end_byte, target)] if fixable else [],
                               title=f"Build from {target}")
