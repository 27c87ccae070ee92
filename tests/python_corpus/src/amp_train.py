"""Mixed-precision training loop of the image classifier."""
import torch
import torch.nn.functional as F


def train_epoch(model, loader, optimizer, device="cuda"):
    scaler = torch.cuda.amp.GradScaler(init_scale=2.0**14)
    model.train()
    for images, labels in loader:
        images = images.to(device, non_blocking=True)
        labels = labels.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        with torch.cuda.amp.autocast(dtype=torch.bfloat16):
            loss = F.cross_entropy(model(images), labels)
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
    torch.cuda.synchronize()
    return loss.item()
