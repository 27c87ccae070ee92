"""Code that is already portable: PyTorch on ROCm runs it as it is."""
import torch
import torch.nn as nn


class MLP(nn.Module):
    def __init__(self, width=1024):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(width, width), nn.ReLU(), nn.Linear(width, 10))

    def forward(self, x):
        return self.net(x)


def build(device=None):
    device = device or ("cuda" if torch.cuda.is_available() else "cpu")
    model = MLP().to(device)
    if torch.cuda.is_available():
        torch.cuda.empty_cache()
        print("GPUs:", torch.cuda.device_count(), torch.cuda.get_device_name(0))
    return model, torch.cuda.memory_allocated()
