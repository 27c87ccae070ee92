"""Data-parallel training of a small regression model, one process per GPU (launched by torchrun).

The custom extension (setup.py) fuses the input scaling; without it the script falls back to torch ops.
"""
import argparse
import os
import subprocess

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.amp import GradScaler, autocast
from torch.nn.parallel import DistributedDataParallel as DDP


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--debug", action="store_true")
    return parser.parse_args()


def scale_bias(x, a, b):
    """a * x + b through the extension when it is built, else with torch ops."""
    try:
        import scale_bias_ext
    except ImportError:
        return a * x + b
    return scale_bias_ext.scale_bias(x, a, b, torch.cuda.current_stream().cuda_stream)


def log_gpus(rank):
    if rank == 0:
        subprocess.run(["rocm-smi"], check=False)
        print("CUDA runtime:", torch.version.cuda)


def main():
    args = parse_args()
    if args.debug:
        os.environ["AMD_SERIALIZE_KERNEL"] = "3"
    dist.init_process_group(backend="nccl")
    rank = dist.get_rank()
    local_rank = int(os.environ.get("LOCAL_RANK", 0))
    torch.cuda.set_device(local_rank)
    device = torch.device("cuda", local_rank)
    log_gpus(rank)

    major, _ = torch.cuda.get_device_capability(local_rank)
    amp_dtype = torch.bfloat16 if major >= 8 else torch.float16

    model = DDP(nn.Sequential(nn.Linear(64, 256), nn.GELU(), nn.Linear(256, 1)).to(device), device_ids=[local_rank])
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    scaler = GradScaler("cuda", enabled=amp_dtype == torch.float16)
    copy_stream = torch.cuda.Stream()

    probe = torch.randn(4096, device=device)
    fused_ok = torch.allclose(scale_bias(probe, 0.5, 0.1), 0.5 * probe + 0.1)
    torch.manual_seed(1234 + rank)
    losses = []
    for epoch in range(args.epochs):
        with torch.cuda.stream(copy_stream):
            x = torch.randn(args.batch, 64, device=device)
            target = x.sum(dim=1, keepdim=True)
        torch.cuda.current_stream().wait_stream(copy_stream)
        x = scale_bias(x, 0.5, 0.1)
        with autocast("cuda", dtype=amp_dtype):
            loss = nn.functional.mse_loss(model(x), target)
        optimizer.zero_grad(set_to_none=True)
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
        losses.append(loss.item())
        if rank == 0 and epoch % 10 == 0:
            print(f"epoch {epoch}: loss {losses[-1]:.4f}")

    if rank == 0:
        print(f"scale_bias matches torch: {fused_ok}; loss {losses[0]:.4f} -> {losses[-1]:.4f}")
        print("PASSED" if fused_ok and losses[-1] < losses[0] else "FAILED")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
