"""GPU memory and utilisation for the training dashboard."""
import pynvml


def gpu_stats():
    pynvml.nvmlInit()
    try:
        stats = []
        for i in range(pynvml.nvmlDeviceGetCount()):
            handle = pynvml.nvmlDeviceGetHandleByIndex(i)
            mem = pynvml.nvmlDeviceGetMemoryInfo(handle)
            util = pynvml.nvmlDeviceGetUtilizationRates(handle)
            stats.append({"index": i, "used_mib": mem.used // 2**20, "util": util.gpu})
        return stats
    finally:
        pynvml.nvmlShutdown()
