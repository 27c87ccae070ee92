"""The NVIDIA driver's version parsed or compared: `parse(get_nvidia_driver_version())`,
`Version(nvidia_driver_version()) >= Version("535")`, `LooseVersion(pynvml.nvmlSystemGetDriverVersion())`,
`int(get_driver_version().split(".")[0]) < 525`, where the value comes from a function whose name says it reads the
NVIDIA (or CUDA) driver's version, or from NVML.

Why: on an AMD machine there is no NVIDIA driver: such helpers (most run `nvidia-smi --query-gpu=driver_version` or
NVML, and catch the failure) return None or raise, and `parse(None)`, `None.split(...)` raise TypeError or
AttributeError, usually at import or start-up. A gate on the driver version (a minimum for a CUDA feature) means
nothing for ROCm's driver either.

What to do (reported, no fix): skip the check on ROCm (`if torch.version.hip:`), or read the ROCm side where a version
matters: `torch.version.hip` for the HIP runtime, `amd-smi version` (or `amdsmi.amdsmi_get_gpu_driver_info`) for the
kernel driver. A check in code that never runs on ROCm is not reported.
"""
from __future__ import annotations

import re

import libcst as cst

from migrate.model import Severity
from migrate.python.index import index
from migrate.rule import PythonRule, Invalid, Valid

PARSERS = {"packaging.version.parse", "packaging.version.Version", "distutils.version.LooseVersion",
           "distutils.version.StrictVersion", "pkg_resources.parse_version", "looseversion.LooseVersion",
           "builtins.int", "builtins.float"}
NVML = {"pynvml.nvmlSystemGetDriverVersion", "pynvml.nvmlSystemGetCudaDriverVersion",
        "pynvml.nvmlSystemGetCudaDriverVersion_v2"}
DRIVER = re.compile(r"(?i)(nvidia|nvml|cuda).*driver.*version|driver.*version.*(nvidia|cuda)|nvidia.*version")
ADVICE = ("there is no NVIDIA driver on an AMD machine: this returns None or fails there, and parsing it raises; "
          "skip the check on ROCm (torch.version.hip), or read torch.version.hip / `amd-smi version` where a version "
          "matters")


class NvidiaDriverVersionParsed(PythonRule):
    code = "PY016"
    severity = Severity.WARNING
    fixable = False
    example_path = "env_check.py"
    examples = [
        Valid("from packaging.version import parse\n\nimport torch\n\nok = parse(torch.__version__) >= parse('2.1')\n"),
        Valid("def get_nvidia_driver_version():\n    return None\n\n\nprint('driver', get_nvidia_driver_version())\n"),
        Invalid("import subprocess\n\nfrom packaging.version import parse\n\n\ndef get_nvidia_driver_version():\n"
                "    try:\n        out = subprocess.check_output([\"nvidia-smi\", \"--query-gpu=driver_version\", "
                "\"--format=csv,noheader\"], text=True)\n    except (OSError, subprocess.CalledProcessError):\n"
                "        return None\n    return out.strip().splitlines()[0]\n\n\n"
                "if parse(get_nvidia_driver_version()) < parse(\"535.0\"):\n    raise SystemExit(\"driver too old\")\n",
                line=14, message=f"parse(get_nvidia_driver_version()): {ADVICE}"),
        Invalid("import pynvml\nfrom distutils.version import LooseVersion\n\npynvml.nvmlInit()\n"
                "NEW_DRIVER = LooseVersion(pynvml.nvmlSystemGetDriverVersion()) >= LooseVersion('525')\n", line=5),
        Invalid("from utils import nvidia_driver_version\n\nmajor = int(nvidia_driver_version().split('.')[0])\n",
                line=3),
    ]

    def check(self, ctx):
        if not re.search(rb"(?i)driver|nvml", ctx.data):  # cheap test first
            return
        idx = index(ctx)
        for call in idx.calls:
            if not _driver_version(ctx, call):
                continue
            node, parent = call, idx.parent(call)
            while isinstance(parent, (cst.Attribute, cst.Call, cst.Subscript, cst.SubscriptElement, cst.Index)) \
                    and not _parser(ctx, parent):
                node, parent = parent, idx.parent(parent)
            if isinstance(parent, cst.Arg):
                parent = idx.parent(parent)
            if isinstance(parent, cst.Call) and _parser(ctx, parent) or _split(node):
                where = parent if isinstance(parent, cst.Call) and _parser(ctx, parent) else node
                start, end = ctx.byte_span(where)
                yield self.finding(ctx, start, end, f"{ctx.text(start, end)}: {ADVICE}")


def _driver_version(ctx, call: cst.Call) -> bool:
    names = ctx.qualified_names(call.func)
    if names & NVML:
        return True
    func = call.func
    last = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else ""
    return bool(DRIVER.search(last))


def _parser(ctx, node: cst.CSTNode) -> bool:
    return isinstance(node, cst.Call) and bool(ctx.qualified_names(node.func) & PARSERS)


def _split(node: cst.CSTNode) -> bool:
    """`get_driver_version().split(".")`: the string taken apart."""
    return isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value in (
        "split", "partition", "startswith")
