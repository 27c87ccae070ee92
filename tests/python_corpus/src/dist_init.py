import os

import torch
import torch.distributed as dist


def init_distributed():
    rank = int(os.environ["RANK"])
    world = int(os.environ["WORLD_SIZE"])
    dist.init_process_group("nccl", rank=rank, world_size=world)
    torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
    return rank, world


def cleanup():
    dist.barrier()
    dist.destroy_process_group()
