"""`nvidia.com/gpu` as a resource limit or request in Kubernetes manifests, Helm values or other YAML
(`resources: {limits: {nvidia.com/gpu: 1}}`).

Why: `nvidia.com/gpu` is the extended resource NVIDIA's device plugin advertises; on a cluster with AMD GPUs nothing
advertises it, so the pod stays Pending. AMD's GPU device plugin for Kubernetes (ROCm/k8s-device-plugin) advertises
`amd.com/gpu` and, for each GPU it allocates, hands the container `/dev/kfd` and that GPU's `/dev/dri` render node:
no `hostPath` volumes or privileged mode are needed.

Fix (safe): the key becomes `amd.com/gpu` (quotes and count stay). Only keys under a `limits` or `requests` mapping
change; node selectors, affinities and tolerations are PY056's.
"""
from __future__ import annotations

from migrate.deploy import yaml_nodes as y
from migrate.deploy.context import walk
from migrate.model import Edit, Severity
from migrate.rule import DeployRule, Invalid, Valid

MESSAGE = ("nvidia.com/gpu is the resource NVIDIA's device plugin advertises: AMD's GPU device plugin advertises "
           "amd.com/gpu and gives the container /dev/kfd and the GPU's /dev/dri node")


class NvidiaGpuResource(DeployRule):
    code = "PY055"
    severity = Severity.INFO
    file_kind = "yaml"
    example_path = "job.yaml"
    examples = [
        Valid("resources:\n  limits:\n    amd.com/gpu: 1\n"),
        Valid("nodeSelector:\n  nvidia.com/gpu: \"true\"\n"),
        Invalid("spec:\n  containers:\n  - name: train\n    resources:\n      limits:\n        nvidia.com/gpu: 2\n"
                "      requests:\n        \"nvidia.com/gpu\": 2\n        cpu: 4\n",
                fixed="spec:\n  containers:\n  - name: train\n    resources:\n      limits:\n        amd.com/gpu: 2\n"
                      "      requests:\n        \"amd.com/gpu\": 2\n        cpu: 4\n",
                line=6, message=MESSAGE),
        Invalid("resources: {limits: {nvidia.com/gpu: 1}}\n", fixed="resources: {limits: {amd.com/gpu: 1}}\n"),
    ]

    def check(self, ctx):
        data = ctx.data
        for pair in walk(ctx.root, *y.PAIRS):
            if y.key(data, pair) != "nvidia.com/gpu":
                continue
            parents = y.path(data, pair)
            if not parents or parents[-1] not in ("limits", "requests"):
                continue
            node = y.key_node(pair)
            raw = data[node.start_byte:node.end_byte]
            start = node.start_byte + raw.index(b"nvidia.com/gpu")
            yield self.finding(ctx, node.start_byte, node.end_byte, MESSAGE,
                               edits=[Edit(start, start + len(b"nvidia.com/gpu"), "amd.com/gpu")],
                               title="Request amd.com/gpu")
