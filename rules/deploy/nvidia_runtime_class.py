"""`runtimeClassName: nvidia` in a Kubernetes pod spec.

Why: the `nvidia` runtime class runs containers with NVIDIA's container runtime, which AMD GPU nodes do not have:
the pod fails to start there. AMD's GPU device plugin needs no runtime class: allocating `amd.com/gpu` (PY055) is
enough for the container to get `/dev/kfd` and `/dev/dri`.

Fix (unsafe, with `--unsafe-fixes`): the line is removed. Unsafe because a cluster may define its own runtime class
named `nvidia` for other reasons, or use AMD's container runtime under another class name.
"""
from __future__ import annotations

from migrate.deploy import yaml_nodes as y
from migrate.deploy.context import walk
from migrate.model import Applicability, Edit, Severity
from migrate.rule import DeployRule, Invalid, Valid

MESSAGE = ("runtimeClassName: nvidia runs the pod with NVIDIA's container runtime, which AMD GPU nodes lack: AMD's "
           "device plugin needs no runtime class: remove it")


class NvidiaRuntimeClass(DeployRule):
    code = "PY057"
    severity = Severity.WARNING
    applicability = Applicability.UNSAFE
    file_kind = "yaml"
    example_path = "pod.yaml"
    examples = [
        Valid("spec:\n  runtimeClassName: gvisor\n"),
        Invalid("spec:\n  runtimeClassName: nvidia\n  containers: []\n", line=2, message=MESSAGE),
        Invalid("spec:\n  runtimeClassName: \"nvidia\"  # GPU nodes\n  containers: []\n",
                fixed="spec:\n  containers: []\n", options=(("unsafe_fixes", True),)),
    ]

    def check(self, ctx):
        data = ctx.data
        for pair in walk(ctx.root, "block_mapping_pair"):
            if y.key(data, pair) != "runtimeClassName" or y.scalar(data, y.value_node(pair)) != "nvidia":
                continue
            start, end = y.lines(data, pair.start_byte, pair.end_byte)
            if data[start:pair.start_byte].strip():  # `- runtimeClassName: nvidia` opens a sequence item: keep it
                yield self.finding(ctx, pair.start_byte, pair.end_byte, MESSAGE)
                continue
            yield self.finding(ctx, pair.start_byte, pair.end_byte, MESSAGE, edits=[Edit(start, end, "")],
                               title="Remove runtimeClassName: nvidia")
