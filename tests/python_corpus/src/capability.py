import torch


def pick_dtype(device_index=0):
    major, minor = torch.cuda.get_device_capability(device_index)
    if major >= 8:
        return torch.bfloat16
    return torch.float16


def has_fp8(device_index=0):
    props = torch.cuda.get_device_properties(device_index)
    return props.major >= 9


def describe(device_index=0):
    props = torch.cuda.get_device_properties(device_index)
    return f"{props.name} with {props.total_memory // 2**20} MiB"
