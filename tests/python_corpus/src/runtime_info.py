"""What this process was built for, in the shapes real code checks it (issue 31: these tests already handle ROCm)."""
import torch
from torch.utils.cpp_extension import CUDA_HOME, ROCM_HOME


def runtime_version():
    if torch.version.cuda:
        version = torch.version.cuda
    elif torch.version.hip:
        version = torch.version.hip
    else:
        version = None
    return version


def runtime_name():
    return "CUDA" if torch.version.cuda else "HIP" if torch.version.hip else None


def device_summary(props):
    if torch.version.cuda is not None:
        return {"name": props.name, "cuda_version": torch.version.cuda}
    else:
        return {"name": props.gcnArchName, "hip_version": torch.version.hip}


def supports_bf16(sm80_or_later):
    if torch.version.cuda:
        return sm80_or_later
    elif torch.version.hip:
        return True
    return False


def toolkit_compiler():
    if CUDA_HOME is not None:
        return CUDA_HOME + "/bin/nvcc"
    elif ROCM_HOME is not None:
        return ROCM_HOME + "/bin/hipcc"
    return None


def cuda_major():
    if torch.version.cuda is None:
        return 0
    return int(torch.version.cuda.split(".")[0])


def gpu_build():
    return torch.version.cuda is not None
