"""FusedAdam: Adam with the moment and parameter updates in one kernel per parameter."""
import torch

try:
    from fused_ops import adam_cuda
except ImportError:
    adam_cuda = None


def make_grad_scaler(enabled=True):
    """A GradScaler for the CUDA device on any torch release we support."""
    try:
        return torch.amp.GradScaler("cuda", enabled=enabled)
    except (AttributeError, TypeError):  # torch < 2.3
        return torch.cuda.amp.GradScaler(enabled=enabled)


class FusedAdam(torch.optim.Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0):
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay))
        self.sm = 0
        if torch.cuda.is_available():
            major, minor = torch.cuda.get_device_capability()
            self.sm = major * 10 + minor

    def _fused(self, p):
        # the kernel is tuned for Ampere and newer; older GPUs take the reference path
        return adam_cuda is not None and p.is_cuda and p.dtype == torch.float32 and self.sm >= 80

    @torch.no_grad()
    def step(self, closure=None):
        loss = closure() if closure is not None else None
        for group in self.param_groups:
            beta1, beta2 = group["betas"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                if not state:
                    state["step"] = 0
                    state["exp_avg"] = torch.zeros_like(p)
                    state["exp_avg_sq"] = torch.zeros_like(p)
                state["step"] += 1
                if self._fused(p):
                    adam_cuda.fused_adam(p, p.grad, state["exp_avg"], state["exp_avg_sq"], group["lr"], beta1, beta2,
                                         group["eps"], group["weight_decay"], state["step"],
                                         torch.cuda.current_stream().cuda_stream)
                    continue
                grad = p.grad.add(p, alpha=group["weight_decay"]) if group["weight_decay"] else p.grad
                state["exp_avg"].mul_(beta1).add_(grad, alpha=1 - beta1)
                state["exp_avg_sq"].mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
                bias1 = 1 - beta1 ** state["step"]
                bias2 = 1 - beta2 ** state["step"]
                denom = (state["exp_avg_sq"] / bias2).sqrt_().add_(group["eps"])
                p.addcdiv_(state["exp_avg"], denom, value=-group["lr"] / bias1)
        return loss
