"""Variables of the NVIDIA container runtime (`NVIDIA_VISIBLE_DEVICES`, `NVIDIA_DRIVER_CAPABILITIES`,
`NVIDIA_REQUIRE_CUDA`, `NVIDIA_DISABLE_REQUIRE`) set or read, in Dockerfiles, compose and Kubernetes YAML, `.env`
files, shell scripts and Python.

The NVIDIA container toolkit reads these when it starts a container, to decide which GPUs and driver libraries to
mount into it. Nothing reads them on an AMD machine: a container reaches AMD GPUs through the `/dev/kfd` and
`/dev/dri` devices (`docker run --device=/dev/kfd --device=/dev/dri --group-add video`, compose `devices:`, or the
`amd.com/gpu` resource of AMD's Kubernetes device plugin), and picks GPUs inside with `ROCR_VISIBLE_DEVICES` or
`HIP_VISIBLE_DEVICES`. A container that relied on them starts without any GPU.

No fix: how the devices reach the container is decided where it is started, so this is reported (WARNING) for a
hand edit there; the setting itself is harmless and may be removed.
"""
from __future__ import annotations

from migrate.deploy.env import rule_sites
from migrate.model import Severity
from migrate.rule import EnvRule, Invalid, Valid

NAMES = ("NVIDIA_VISIBLE_DEVICES", "NVIDIA_DRIVER_CAPABILITIES", "NVIDIA_REQUIRE_CUDA", "NVIDIA_DISABLE_REQUIRE")


class NvidiaContainerVariable(EnvRule):
    code = "PY024"
    severity = Severity.WARNING
    fixable = False
    example_path = "Dockerfile"
    examples = [
        Valid("FROM rocm/pytorch:latest\nENV HIP_VISIBLE_DEVICES=0\n"),
        Valid("services:\n  app:\n    devices:\n      - /dev/kfd\n      - /dev/dri\n", path="compose.yaml"),
        Invalid("NVIDIA_VISIBLE_DEVICES=all\n", path="gpu.env", line=1),
        Invalid("FROM ubuntu:22.04\nENV NVIDIA_VISIBLE_DEVICES=all NVIDIA_DRIVER_CAPABILITIES=compute,utility\n",
                line=2, message="NVIDIA_VISIBLE_DEVICES is read by the NVIDIA container runtime only: an AMD GPU "
                                "reaches a container through the /dev/kfd and /dev/dri devices (or the amd.com/gpu "
                                "resource in Kubernetes), and is picked with ROCR_VISIBLE_DEVICES or "
                                "HIP_VISIBLE_DEVICES; give the container those devices where it is started"),
        Invalid("spec:\n  containers:\n    - name: train\n      env:\n        - name: NVIDIA_VISIBLE_DEVICES\n"
                "          value: all\n", line=5, path="job.yaml"),
        Invalid("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: gpu\ndata:\n  NVIDIA_VISIBLE_DEVICES: all\n",
                line=6, path="configmap.yaml"),
        Invalid("docker run --rm -e NVIDIA_VISIBLE_DEVICES=0 img\nNVIDIA_VISIBLE_DEVICES=0 ./start.sh\n", line=1,
                path="run.sh"),
    ]

    def check(self, ctx):
        for site in rule_sites(ctx):
            if site.name in NAMES:
                yield self.finding(ctx, site.start, site.end, f"{site.name} is read by the NVIDIA container runtime "
                                   "only: an AMD GPU reaches a container through the /dev/kfd and /dev/dri devices "
                                   "(or the amd.com/gpu resource in Kubernetes), and is picked with "
                                   "ROCR_VISIBLE_DEVICES or HIP_VISIBLE_DEVICES; give the container those devices "
                                   "where it is started")
