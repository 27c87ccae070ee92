"""What the extensions need from the CUDA runtime and driver, read once at import."""
import ctypes
import subprocess

import torch
from packaging.version import parse

_MIN_DRIVER = "525.60"


def get_nvidia_driver_version():
    """The driver version nvidia-smi reports, or None where it cannot be asked."""
    try:
        out = subprocess.check_output(
            ["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"], text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.strip().splitlines()[0]


def check_driver():
    """Refuse to run the fused kernels on a driver older than the one the wheels were built against."""
    if not torch.cuda.is_available():
        return False
    return parse(get_nvidia_driver_version()) >= parse(_MIN_DRIVER)


def enable_tf32():
    # TF32 tensor cores for the float32 matmuls around the fused ops (Ampere and newer)
    torch.backends.cuda.matmul.allow_tf32 = True
    torch.backends.cudnn.allow_tf32 = True


class Profiler:
    """Marks a region for Nsight Systems (cudaProfilerStart/Stop through the runtime library)."""

    def __init__(self):
        self._cudart = ctypes.CDLL("libamdhip64.so")

    def __enter__(self):
        self._cudart.hipProfilerStart()
        return self

    def __exit__(self, *exc):
        self._cudart.hipDeviceSynchronize()
        self._cudart.hipProfilerStop()
        return False
