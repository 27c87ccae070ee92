"""NVML from Python: `import pynvml`, `from pynvml import *`, `import nvidia_smi` (nvidia-ml-py3's helper),
`from pynvml.smi import nvidia_smi`, `py3nvml`, and every `nvmlXxx(...)` call (through `pynvml.`, an alias, a
from-import or a star import), and `NVMLError` in `except` clauses.

Why: NVML (libnvidia-ml) is NVIDIA's driver library and is not installed on AMD machines, so `nvmlInit()` fails
there. AMD's counterpart is AMD SMI's Python library, `amdsmi` (`import amdsmi`; it ships with ROCm and as the
`amdsmi` package). Each call is reported with its amdsmi counterpart from the table below (function names checked
against AMD SMI's Python API reference, ROCm/amdsmi docs/reference/amdsmi-py-api.md).

No fix: the return shapes differ (amdsmi returns dictionaries such as `{"vram_used", "vram_total"}` and
`{"gfx_activity", "umc_activity", "mm_activity"}`, and its units are not NVML's: VRAM usage in MB, power in the
units the reference names), so every use of the result needs a look.
"""
from __future__ import annotations

import re

import libcst as cst
from libcst.helpers import get_full_name_for_node

from migrate.model import Severity
from migrate.python.index import index
from migrate.rule import PythonRule, Invalid, Valid

MODULES = ("pynvml", "nvidia_smi", "py3nvml")
COUNTERPART = {
    "nvmlInit": "amdsmi_init()",
    "nvmlInitWithFlags": "amdsmi_init(flags)",
    "nvmlShutdown": "amdsmi_shut_down()",
    "nvmlDeviceGetCount": "len(amdsmi_get_processor_handles())",
    "nvmlDeviceGetHandleByIndex": "amdsmi_get_processor_handles()[i]",
    "nvmlDeviceGetHandleByPciBusId": "amdsmi_get_processor_handle_from_bdf(bdf)",
    "nvmlDeviceGetMemoryInfo": "amdsmi_get_gpu_vram_usage(handle) (keys vram_used, vram_total)",
    "nvmlDeviceGetUtilizationRates": "amdsmi_get_gpu_activity(handle) (keys gfx_activity, umc_activity, "
                                     "mm_activity)",
    "nvmlDeviceGetTemperature": "amdsmi_get_temp_metric(handle, AmdSmiTemperatureType.EDGE, "
                                "AmdSmiTemperatureMetric.CURRENT)",
    "nvmlDeviceGetPowerUsage": "amdsmi_get_power_info(handle) (keys current_socket_power, average_socket_power)",
    "nvmlDeviceGetName": 'amdsmi_get_gpu_asic_info(handle)["market_name"]',
    "nvmlDeviceGetUUID": "amdsmi_get_gpu_device_uuid(handle)",
    "nvmlDeviceGetPciInfo": "amdsmi_get_gpu_device_bdf(handle)",
    "nvmlSystemGetDriverVersion": 'amdsmi_get_gpu_driver_info(handle)["driver_version"]',
    "nvmlDeviceGetComputeRunningProcesses": "amdsmi_get_gpu_process_list(handle)",
    "nvmlDeviceGetGraphicsRunningProcesses": "amdsmi_get_gpu_process_list(handle)",
    "nvmlDeviceGetFanSpeed": "amdsmi_get_gpu_fan_speed(handle, 0)",
    "nvmlDeviceGetClockInfo": "amdsmi_get_clock_info(handle, clock_type)",
    "nvmlDeviceGetTotalEnergyConsumption": "amdsmi_get_energy_count(handle)",
    "nvmlDeviceGetPowerManagementLimit": 'amdsmi_get_power_cap_info(handle)["power_cap"]',
    "nvmlDeviceGetEnforcedPowerLimit": 'amdsmi_get_power_cap_info(handle)["power_cap"]',
    "nvmlDeviceGetTotalEccErrors": "amdsmi_get_gpu_total_ecc_count(handle)",
    "nvmlDeviceGetSerial": 'amdsmi_get_gpu_board_info(handle)["product_serial"]',
    "nvmlDeviceGetBoardPartNumber": 'amdsmi_get_gpu_board_info(handle)["model_number"]',
    "nvmlDeviceGetCudaComputeCapability": 'no counterpart (a CUDA notion): amdsmi_get_gpu_asic_info(handle)'
                                          '["target_graphics_version"] names the gfx target',
}
IMPORT = ("{name} talks to NVIDIA's NVML (libnvidia-ml), which AMD machines do not have: use amdsmi, AMD SMI's "
          "Python library (import amdsmi)")


def call_message(func: str) -> str:
    counterpart = COUNTERPART.get(func)
    if counterpart is None:
        return f"{func} is an NVML call, unavailable on AMD machines: find its amdsmi counterpart by hand"
    if counterpart.startswith("no counterpart"):
        return f"{func} is an NVML call, unavailable on AMD machines: {counterpart}"
    spelt = re.sub(r"\bamdsmi_", "amdsmi.amdsmi_", counterpart)  # as called after `import amdsmi`
    return f"{func} is an NVML call, unavailable on AMD machines: amdsmi's counterpart is {spelt}"


class PynvmlApi(PythonRule):
    code = "PY012"
    severity = Severity.WARNING
    fixable = False
    example_path = "gpu_stats.py"
    examples = [
        Valid("import amdsmi\n\namdsmi.amdsmi_init()\nhandles = amdsmi.amdsmi_get_processor_handles()\n"),
        Valid("def nvmlInit():\n    pass\n\nnvmlInit()\n"),
        Invalid("import pynvml\n\npynvml.nvmlInit()\nh = pynvml.nvmlDeviceGetHandleByIndex(0)\n"
                "used = pynvml.nvmlDeviceGetMemoryInfo(h).used\n", line=1,
                message=IMPORT.format(name="pynvml")),
        Invalid("from pynvml import *\n\nnvmlInit()\ncount = nvmlDeviceGetCount()\n", line=1),
        Invalid("import pynvml as nv\n\ntry:\n    nv.nvmlInit()\nexcept nv.NVMLError:\n    pass\n", line=1),
    ]

    def check(self, ctx):
        if b"nvml" not in ctx.data and b"nvidia_smi" not in ctx.data:  # cheap test first: most files never name it
            return
        idx = index(ctx)
        star = False
        found = []
        for node in idx.imports:
            if isinstance(node.names, cst.ImportStar):
                continue
            for alias in node.names:
                name = get_full_name_for_node(alias.name) or ""
                if name.split(".")[0] in MODULES:
                    found.append(self.finding(ctx, *ctx.byte_span(alias), IMPORT.format(name=name)))
        for node in idx.import_froms:
            module = get_full_name_for_node(node.module) if node.module is not None and not node.relative else ""
            if module and module.split(".")[0] in MODULES:
                star = star or isinstance(node.names, cst.ImportStar)
                found.append(self.finding(ctx, *ctx.byte_span(node), IMPORT.format(name=module)))
        for call in idx.calls:
            func = self._nvml(ctx, call.func, star)
            if func:
                found.append(self.finding(ctx, *ctx.byte_span(call), call_message(func)))
        for handler in (n for n in idx.parents if isinstance(n, cst.ExceptHandler)):
            kinds = handler.type.elements if isinstance(handler.type, cst.Tuple) else [handler.type]
            for kind in kinds:
                node = kind.value if isinstance(kind, cst.Element) else kind
                if node is not None and self._nvml(ctx, node, star, prefix="NVMLError"):
                    found.append(self.finding(ctx, *ctx.byte_span(node), "NVMLError is NVML's exception: amdsmi "
                                              "raises amdsmi.AmdSmiException (AmdSmiLibraryException and others)"))
        yield from sorted(found, key=lambda f: f.span.start)

    @staticmethod
    def _nvml(ctx, node, star: bool, prefix: str = "nvml") -> str | None:
        """The NVML function (or exception) `node` names, else None."""
        for name in ctx.qualified_names(node):
            parts = name.split(".")
            if parts[0] in MODULES and parts[-1].startswith(prefix):
                return parts[-1]
        if star and isinstance(node, cst.Name) and node.value.startswith(prefix) \
                and not ctx.qualified_names(node) - {node.value}:
            return node.value
        return None
