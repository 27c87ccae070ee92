"""Pick the wheel index and the container image for a CUDA release."""
import subprocess


def index_url(cuda: str) -> str:
    return f"https://wheels.example.org/whl/cu{cuda.replace('.', '')}"


def image(cuda: str) -> str:
    return f"nvidia/cuda:{cuda}-devel-ubuntu22.04"


def install(cuda: str) -> None:
    subprocess.check_call(["pip", "install", "torch", "--index-url", index_url(cuda)])
