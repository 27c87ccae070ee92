import cupy
import torch


def overlapped_copy(host_batches, device="cuda"):
    copy_stream = torch.cuda.Stream()
    done = torch.cuda.Event()
    outputs = []
    for batch in host_batches:
        with torch.cuda.stream(copy_stream):
            outputs.append(batch.to(device, non_blocking=True))
        done.record(copy_stream)
        torch.cuda.current_stream().wait_event(done)
    return outputs


def cupy_postprocess(tensor):
    stream = cupy.cuda.ExternalStream(torch.cuda.current_stream().cuda_stream)
    with stream:
        arr = cupy.asarray(tensor)
        return cupy.sort(arr)
