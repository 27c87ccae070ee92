"""NVIDIA's CUDA image with a templated tag in a Python string or a `.env` file (migrate/deploy/cuda_templates.py):
`f"nvidia/cuda:{cuda}-devel-ubuntu{os}"` in a script that builds or launches containers,
`BASE_IMAGE=nvidia/cuda:${CUDA_VERSION}-runtime-ubuntu22.04` read by compose or a build script.

Why: whatever version it is given, the image holds CUDA and nothing that drives an AMD GPU. AMD publishes
`rocm/dev-ubuntu-<release>:<rocm>` images (`-complete` tags add every ROCm library, the counterpart of CUDA's
`devel` and `cudnn` flavours). In Dockerfiles, YAML and shell text the same images are PY050's.

No fix: the tag is built at run time, so the template itself must change: template the ROCm release instead
(`f"rocm/dev-ubuntu-22.04:{rocm}-complete"`) or write a literal rocm/dev-ubuntu image.
"""
from __future__ import annotations

from migrate.deploy.cuda_templates import templated
from migrate.model import Severity
from migrate.rule import DeployRule, Invalid, Valid


class TemplatedCudaImage(DeployRule):
    code = "PY069"
    severity = Severity.WARNING
    fixable = False
    file_kinds = ("python", "dotenv")
    example_path = "launch.py"
    examples = [
        Valid("IMAGE = f\"rocm/dev-ubuntu-22.04:{rocm}-complete\"\n"
              "# IMAGE = f\"nvidia/cuda:{cuda}-devel-ubuntu22.04\"\n"),
        Invalid("def image(cuda):\n    return f\"nvidia/cuda:{cuda}-devel-ubuntu22.04\"\n", line=2,
                message="nvidia/cuda:{cuda}-devel-ubuntu22.04 is NVIDIA's CUDA image, whatever tag it is given: "
                        "template a ROCm image instead (rocm/dev-ubuntu-22.04:{rocm}-complete, for example) or write "
                        "a literal rocm/dev-ubuntu image"),
        Invalid("BASE_IMAGE=nvcr.io/nvidia/cuda:${CUDA_VERSION}-runtime-ubuntu22.04\n", path=".env", line=1),
    ]

    def check(self, ctx):
        for site in templated(ctx):
            if site.what != "image":
                continue
            yield self.finding(ctx, site.start, site.end,
                               f"{site.tag} is NVIDIA's CUDA image, whatever tag it is given: template a ROCm image "
                               "instead (rocm/dev-ubuntu-22.04:{rocm}-complete, for example) or write a literal "
                               "rocm/dev-ubuntu image")
