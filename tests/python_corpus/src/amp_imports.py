import torch
from torch.cuda.amp import GradScaler, autocast, custom_bwd, custom_fwd


class ScaledMatmul(torch.autograd.Function):
    @staticmethod
    @custom_fwd(cast_inputs=torch.float16)
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a @ b

    @staticmethod
    @custom_bwd
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return grad @ b.t(), a.t() @ grad


def step(model, batch, optimizer, scaler=None):
    scaler = scaler or GradScaler()
    with autocast():
        loss = model(batch).mean()
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()
    return scaler
