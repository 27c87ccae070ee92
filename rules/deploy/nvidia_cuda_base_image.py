"""A Dockerfile stage built `FROM nvidia/cuda:<version>-<flavour>-<os>` (also `nvcr.io/nvidia/cuda`).

Why: NVIDIA's CUDA images hold the CUDA toolkit and libraries; nothing in them drives an AMD GPU. AMD publishes
`rocm/dev-ubuntu-<release>` images with ROCm installed on the same Ubuntu releases; their `-complete` tags add all
ROCm libraries, the counterpart of CUDA's `devel` and `cudnn` flavours.

Fix (safe): the image (name and tag) becomes the ROCm image of the same Ubuntu release from the table in
`migrate/deploy/rocm_images.py` (`-complete` for `devel`/`cudnn` flavours); `--platform`, `AS <name>` and the rest
of the line stay. Safe because the CUDA image cannot serve an AMD GPU at all and the OS stays the same, but the
finding is a warning: the ROCm version is hipmigrate's choice, not one derived from the CUDA version (there is no
such correspondence); pick the tag that matches the host's driver and the ROCm your wheels need. Tags built from
`ARG`s, digests, a missing tag and operating systems with no `rocm/dev-*` image are reported without a fix.
Environment variables (`ENV CUDA_HOME=...`) are left to the environment-variable rules.
"""
from __future__ import annotations

from migrate.deploy.rocm_images import is_cuda_image, rocm_dev_image
from migrate.model import Edit, RuleKind, Severity
from migrate.rule import FileRule, Invalid, Valid


class NvidiaCudaBaseImage(FileRule):
    code = "PY050"
    kind = RuleKind.PYTHON
    severity = Severity.WARNING
    file_kind = "docker"
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
        Invalid("ARG CUDA=12.1.1\nFROM nvidia/cuda:${CUDA}-devel-ubuntu22.04\n", line=2,
                message="nvidia/cuda:${CUDA}-devel-ubuntu22.04 is NVIDIA's CUDA image: replace it with a "
                        "rocm/dev-ubuntu-* image (rocm/dev-ubuntu-22.04:6.4.1-complete, for example) by hand"),
    ]

    def check(self, ctx):
        for instruction in ctx.nodes("from_instruction"):
            spec = next((c for c in instruction.children if c.type == "image_spec"), None)
            if spec is None:
                continue
            name = next((c for c in spec.children if c.type == "image_name"), None)
            if name is None or not is_cuda_image(ctx.node_text(name)):
                continue
            tag = next((c for c in spec.children if c.type == "image_tag"), None)
            digest = any(c.type == "image_digest" for c in spec.children)
            text = ctx.node_text(spec)
            head = f"{text} is NVIDIA's CUDA image"
            plain = tag is not None and not digest and not any(c.type == "expansion" for c in tag.children)
            target = rocm_dev_image(ctx.node_text(tag)[1:]) if plain else None
            if target is None:
                yield self.finding(ctx, spec.start_byte, spec.end_byte, f"{head}: replace it with a rocm/dev-ubuntu-* "
                                   "image (rocm/dev-ubuntu-22.04:6.4.1-complete, for example) by hand")
                continue
            yield self.finding(ctx, spec.start_byte, spec.end_byte,
                               f"{head}: {target} is the ROCm image of the same Ubuntu; its ROCm version is a choice: "
                               "check it against the host's driver and the ROCm your wheels need",
                               edits=[Edit(spec.start_byte, spec.end_byte, target)], title=f"Build from {target}")
