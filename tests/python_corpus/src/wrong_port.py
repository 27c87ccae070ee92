# A first attempt at "porting" to ROCm by renaming cuda to hip.
import torch
import torch.distributed as dist


def setup(rank, world_size):
    dist.init_process_group(backend="rccl", rank=rank, world_size=world_size)
    torch.hip.set_device(rank)
    return torch.device("hip", rank)


def warmup(device):
    x = torch.randn(1024, 1024, device="hip")
    y = x @ x
    torch.hip.synchronize()
    return y.to("cuda:0")
