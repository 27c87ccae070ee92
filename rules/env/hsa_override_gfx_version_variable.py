"""`HSA_OVERRIDE_GFX_VERSION` set (or read), in Python, shell scripts, `.env` files, Dockerfiles and YAML: `export
HSA_OVERRIDE_GFX_VERSION=10.3.0`, `ENV HSA_OVERRIDE_GFX_VERSION=11.0.0`, `os.environ["HSA_OVERRIDE_GFX_VERSION"] =
"10.3.0"`, a Kubernetes or compose `env:` entry.

Why: the variable makes the ROCm runtime report another GPU architecture than the one installed (10.3.0 is gfx1030,
11.0.0 gfx1100), so that code built only for a supported architecture runs on a consumer Radeon card it was not built
for. It is a workaround for such cards, not a setting for MI-series GPUs: there the real architecture (gfx90a,
gfx942) has its own kernels, and an override either changes nothing useful or makes the runtime load kernels built
for another chip, which fail or compute wrongly. It often travels from a desktop setup into a Dockerfile or a
cluster manifest unnoticed.

Reported (WARNING, no fix): keep it only where it is meant, for the card it names (with the value matching that
card's family), and leave it out of images and manifests for MI-series nodes.
"""
from __future__ import annotations

from migrate.deploy.env import rule_sites
from migrate.deploy.env_edits import describe
from migrate.deploy.env_site import Access
from migrate.model import Severity
from migrate.rule import EnvRule, Invalid, Valid

NAME = "HSA_OVERRIDE_GFX_VERSION"
MESSAGE = ("{what} makes the ROCm runtime report another GPU architecture than the installed one (a workaround that "
           "lets consumer Radeon cards run code built for a supported chip); on MI-series GPUs it is not needed and can "
           "load kernels built for the wrong chip: set it only deliberately, for the card it names, and keep it out of "
           "images and manifests for other GPUs")


class HsaOverrideGfxVersionVariable(EnvRule):
    code = "PY026"
    severity = Severity.WARNING
    fixable = False
    example_path = "Dockerfile"
    examples = [
        Valid("FROM rocm/pytorch:latest\nENV HIP_VISIBLE_DEVICES=0\n# HSA_OVERRIDE_GFX_VERSION=10.3.0 for RX 6800\n"),
        Invalid("FROM rocm/pytorch:latest\nENV HSA_OVERRIDE_GFX_VERSION=10.3.0\n", line=2,
                message=MESSAGE.format(what="HSA_OVERRIDE_GFX_VERSION=10.3.0")),
        Invalid("#!/bin/bash\nexport HSA_OVERRIDE_GFX_VERSION=11.0.0\npython train.py\n", path="run.sh", line=2),
        Invalid("import os\n\nos.environ.setdefault(\"HSA_OVERRIDE_GFX_VERSION\", \"10.3.0\")\nimport torch\n",
                path="app.py", line=3),
        Invalid("spec:\n  containers:\n    - name: train\n      env:\n        - name: HSA_OVERRIDE_GFX_VERSION\n"
                "          value: \"9.4.2\"\n", path="job.yaml", line=5),
        Invalid("HSA_OVERRIDE_GFX_VERSION=10.3.0\n", path=".env", line=1),
    ]

    def check(self, ctx):
        for site in rule_sites(ctx):
            if site.name == NAME and site.access is not Access.UNSET:
                what = describe(site) if site.access is Access.SET else f"reading {NAME}"
                yield self.finding(ctx, site.start, site.end, MESSAGE.format(what=what))
