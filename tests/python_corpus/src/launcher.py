import os
import subprocess
import sys


def launch(script, gpus):
    env = {
        **os.environ,
        "CUDA_VISIBLE_DEVICES": ",".join(str(g) for g in gpus),
        "NCCL_P2P_LEVEL": "NVL",
        "NCCL_DEBUG": "INFO",
    }
    return subprocess.run([sys.executable, script], env=env, check=True)
