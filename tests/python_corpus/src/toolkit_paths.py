import os
from pathlib import Path


def cuda_include_dir():
    root = os.getenv("CUDA_HOME", "/usr/local/cuda")
    return Path(root) / "include"


def nvcc_path():
    return Path(os.environ.get("CUDA_PATH", "/usr/local/cuda")) / "bin" / "nvcc"
