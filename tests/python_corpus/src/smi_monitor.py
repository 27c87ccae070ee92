import subprocess


def memory_used_mib():
    out = subprocess.check_output(
        ["nvidia-smi", "--query-gpu=memory.used", "--format=csv,noheader,nounits"], text=True
    )
    return [int(line) for line in out.splitlines() if line.strip()]


def print_status():
    subprocess.run(["echo", "GPU status:"], check=True)
