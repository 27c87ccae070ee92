"""Node selection by NVIDIA labels, taints and resources in Kubernetes YAML: `nodeSelector` and `nodeAffinity`
terms on `nvidia.com/...` labels (`nvidia.com/gpu.product: NVIDIA-A100-SXM4-80GB`, `nvidia.com/gpu.present`),
tolerations of `nvidia.com/gpu` taints, and NVIDIA-only resources such as MIG slices (`nvidia.com/mig-1g.10gb`).

Why: NVIDIA's GPU feature discovery sets those labels and NVIDIA's GPU operator those taints; AMD GPU nodes carry
neither, so the pod never schedules (or tolerates nothing). AMD's GPU node labeller publishes `amd.com/gpu.*`
labels (family, device ID, VRAM, compute units, ...), and AMD nodes are tainted however their admins chose
(often `amd.com/gpu`). MIG slices have no `amd.com` resource.

No fix: the right label and value depend on the cluster. A `nvidia.com/gpu` limit or request is PY055's.
"""
from __future__ import annotations

from migrate.deploy import yaml_nodes as y
from migrate.deploy.context import walk
from migrate.model import Severity
from migrate.rule import DeployRule, Invalid, Valid

LABELS = ("select nodes by a label of NVIDIA's GPU feature discovery, which AMD GPU nodes do not carry: use the "
          "amd.com/gpu.* labels of AMD's GPU node labeller")
TAINT = ("tolerates NVIDIA's GPU taint: AMD GPU nodes are tainted as their admins chose (often amd.com/gpu): "
         "tolerate that taint instead")
MIG = "is an NVIDIA MIG slice: AMD's device plugin has no such resource: request whole amd.com/gpu devices"


class NvidiaNodeSelection(DeployRule):
    code = "PY056"
    severity = Severity.WARNING
    fixable = False
    file_kind = "yaml"
    example_path = "deployment.yaml"
    examples = [
        Valid("nodeSelector:\n  amd.com/gpu.family: AI\ntolerations:\n- key: amd.com/gpu\n  operator: Exists\n"),
        Valid("resources:\n  limits:\n    nvidia.com/gpu: 1\n"),
        Invalid("spec:\n  nodeSelector:\n    nvidia.com/gpu.product: NVIDIA-A100-SXM4-80GB\n", line=3,
                message=f"nodeSelector nvidia.com/gpu.product: NVIDIA-A100-SXM4-80GB would {LABELS}"),
        Invalid("tolerations:\n- key: nvidia.com/gpu\n  operator: Exists\n  effect: NoSchedule\n", line=2,
                message=f"toleration key nvidia.com/gpu {TAINT}"),
        Invalid("affinity:\n  nodeAffinity:\n    requiredDuringSchedulingIgnoredDuringExecution:\n"
                "      nodeSelectorTerms:\n      - matchExpressions:\n        - key: nvidia.com/gpu.present\n"
                "          operator: In\n          values: [\"true\"]\n", line=6,
                message=f"node affinity on nvidia.com/gpu.present would {LABELS}"),
        Invalid("resources:\n  limits:\n    nvidia.com/mig-1g.10gb: 1\n", line=3,
                message=f"nvidia.com/mig-1g.10gb {MIG}"),
    ]

    def check(self, ctx):
        data = ctx.data
        for pair in walk(ctx.root, *y.PAIRS):
            name = y.key(data, pair) or ""
            parents = y.path(data, pair)
            where = parents[-1] if parents else ""
            node = y.key_node(pair)
            if name.startswith("nvidia.com/"):
                if where in ("limits", "requests"):
                    if name.startswith("nvidia.com/mig-"):
                        yield self.finding(ctx, node.start_byte, node.end_byte, f"{name} {MIG}")
                    continue
                value = y.scalar(data, y.value_node(pair))
                shown = f"{name}: {value}" if value is not None else name
                yield self.finding(ctx, node.start_byte, pair.end_byte, f"{where or 'label'} {shown} would {LABELS}")
            elif name == "key":
                value_node = y.value_node(pair)
                value = y.scalar(data, value_node)
                if not value or not value.startswith("nvidia.com/"):
                    continue
                if "tolerations" in parents:
                    message = f"toleration key {value} {TAINT}"
                else:
                    message = f"node affinity on {value} would {LABELS}"
                yield self.finding(ctx, value_node.start_byte, value_node.end_byte, message)
