"""Environment for reproducible debugging runs."""
import os


def configure(debug: bool, arch_list: str = "8.0;9.0"):
    if debug:
        os.environ["CUDA_LAUNCH_BLOCKING"] = "1"
    os.environ["TORCH_CUDA_ARCH_LIST"] = arch_list
    os.environ.setdefault("CUDA_VISIBLE_DEVICES", "0")
    os.environ["OMP_NUM_THREADS"] = "8"
    return os.environ.get("CUDA_HOME", "/usr/local/cuda")
