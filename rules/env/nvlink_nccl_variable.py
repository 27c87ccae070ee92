"""NCCL settings that only mean something on NVIDIA's NVLink, set or read in Python, shell scripts, `.env` files, Dockerfiles and
YAML: `NCCL_NVLS_*` (NVLink SHARP: `NCCL_NVLS_ENABLE`, `NCCL_NVLS_NCHANNELS`, ...), `NCCL_MNNVL_*` (multi-node
NVLink), any `NCCL_*NVLINK*` name, and the path level `NVL` in `NCCL_P2P_LEVEL` / `NCCL_NET_GDR_LEVEL` (or its old
name `NCCL_IB_GDR_LEVEL`).

PyTorch's `backend='nccl'` runs on RCCL on ROCm, and RCCL reads the `NCCL_*` variables (`NCCL_DEBUG`,
`NCCL_SOCKET_IFNAME`, `NCCL_IB_HCA`, `NCCL_P2P_LEVEL=PIX`, `NCCL_CUMEM_ENABLE`, ... keep working and are not flagged).
NVLS needs NVSwitch multicast and MNNVL needs NVIDIA's multi-node NVLink fabric: AMD GPUs have neither, and RCCL
builds the NVLS transport as its empty stub, so these settings are ignored there; a job tuned around them may
perform differently. The path level RCCL puts where NCCL has `NVL` is called `XGMI` (AMD's Infinity Fabric link
between GPUs): RCCL does not recognise `NVL` and falls back to its default.

Fix safety: the NVLink-only settings have no fix (WARNING): remove them, or tune RCCL's own settings, by hand.
`NVL` → `XGMI` is an UNSAFE fix (only with --unsafe-fixes): it gives the setting the meaning it had on NVLink
machines (direct GPU-to-GPU transfers only over the GPU fabric), which the AMD machine's topology may not warrant.
"""
from __future__ import annotations

from migrate.deploy.env import rule_sites
from migrate.deploy.env_site import Access
from migrate.model import Applicability, Edit, Severity
from migrate.rule import EnvRule, Invalid, Valid

LEVELS = ("NCCL_P2P_LEVEL", "NCCL_NET_GDR_LEVEL", "NCCL_IB_GDR_LEVEL")
NVLINK_ONLY = ("NVLS", "MNNVL", "NVLINK")


def nvlink_only(name: str) -> bool:
    return name.startswith("NCCL_") and any(part in name[len("NCCL_"):] for part in NVLINK_ONLY)


class NvlinkNcclVariable(EnvRule):
    code = "PY025"
    severity = Severity.WARNING
    applicability = Applicability.UNSAFE
    example_path = "launch.sh"
    examples = [
        Valid("export NCCL_DEBUG=INFO NCCL_SOCKET_IFNAME=eth0 NCCL_P2P_LEVEL=PIX\n"),
        Valid('import os\nos.environ["NCCL_IB_HCA"] = "mlx5"\nos.environ["NCCL_P2P_LEVEL"] = "XGMI"\n',
              path="train.py"),
        Invalid("export NCCL_NVLS_ENABLE=1\ntorchrun --nproc-per-node 8 train.py\n", line=1,
                message="NCCL_NVLS_ENABLE is an NVLink setting of NVIDIA's NCCL: RCCL reads NCCL_* variables, but AMD "
                        "GPUs have no NVLink, NVLink SHARP or multi-node NVLink, so this one is ignored there; "
                        "remove it, or tune RCCL's own settings, by hand"),
        Invalid("export NCCL_P2P_LEVEL=NVL\n", line=1,
                message="NCCL_P2P_LEVEL=NVL names NVLink, a path level RCCL does not know: it calls that level XGMI "
                        "(AMD's Infinity Fabric link between GPUs), and ignores NVL"),
        Invalid("export NCCL_P2P_LEVEL=NVL\n", fixed="export NCCL_P2P_LEVEL=XGMI\n", line=1,
                options=(("unsafe_fixes", True),)),
        Invalid('import os\nos.environ.update(NCCL_MNNVL_ENABLE="0", NCCL_NET_GDR_LEVEL="NVL")\n',
                fixed='import os\nos.environ.update(NCCL_MNNVL_ENABLE="0", NCCL_NET_GDR_LEVEL="XGMI")\n', line=2,
                options=(("unsafe_fixes", True),), path="train.py"),
        Invalid("apiVersion: v1\nkind: Secret\nmetadata:\n  name: nccl\nstringData:\n"
                "  NCCL_P2P_LEVEL: NVL  # NVLink islands\n  NCCL_SOCKET_IFNAME: eth0\n",
                fixed="apiVersion: v1\nkind: Secret\nmetadata:\n  name: nccl\nstringData:\n"
                      "  NCCL_P2P_LEVEL: XGMI  # NVLink islands\n  NCCL_SOCKET_IFNAME: eth0\n",
                line=6, path="secret.yaml", options=(("unsafe_fixes", True),)),
        Invalid('FROM rocm/pytorch:latest\nCMD ["sh", "-c", "NCCL_NVLS_ENABLE=0 exec torchrun train.py"]\n', line=2,
                path="Dockerfile"),
        Invalid("spec:\n  template:\n    spec:\n      containers:\n        - name: worker\n          env:\n"
                "            - name: NCCL_NVLS_ENABLE\n              value: \"0\"\n", line=7, path="job.yaml"),
    ]

    def check(self, ctx):
        for site in rule_sites(ctx):
            if nvlink_only(site.name):
                yield self.finding(ctx, site.start, site.end, f"{site.name} is an NVLink setting of NVIDIA's NCCL: "
                                   "RCCL reads NCCL_* variables, but AMD GPUs have no NVLink, NVLink SHARP or "
                                   "multi-node NVLink, so this one is ignored there; remove it, or tune RCCL's own "
                                   "settings, by hand")
            elif site.name in LEVELS and site.access is Access.SET and site.value == "NVL" and site.literal:
                edits = [Edit(site.value_start, site.value_end, "XGMI")]
                yield self.finding(ctx, site.start, site.value_end, f"{site.name}=NVL names NVLink, a path level RCCL "
                                   "does not know: it calls that level XGMI (AMD's Infinity Fabric link between "
                                   "GPUs), and ignores NVL", edits=edits, title="Use XGMI")
