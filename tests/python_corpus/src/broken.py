import torch

def half_written(:
    with torch.cuda.amp.autocast():
        pass
