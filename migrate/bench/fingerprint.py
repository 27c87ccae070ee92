"""The machine a benchmark ran on, as its own tools report it: nvidia-smi, rocm-smi, amd-smi, hipconfig, hipcc,
nvcc and git, each run when found. A fact no tool reports stays None ("unknown" on screen): nothing is guessed.
The parsers are pure functions over the tools' text, so they can be checked on recorded outputs."""
from __future__ import annotations

import os
import platform
import re
import shutil
import socket
import subprocess
from dataclasses import asdict, dataclass
from pathlib import Path

from migrate import git
from migrate.doctor import parsers

TIMEOUT = 30


@dataclass(frozen=True)
class Fingerprint:
    gpu_name: str | None  # "NVIDIA H200"; several kinds joined with " + "
    gpu_count: int | None
    gpu_tool: str | None  # the tool that reported the GPUs
    driver: str | None
    cuda_version: str | None  # the driver's CUDA version (nvidia-smi), else nvcc's release
    rocm_version: str | None
    hip_version: str | None  # hipconfig --version
    hipcc_version: str | None
    nvcc_version: str | None
    host: str
    os: str
    git_commit: str | None
    git_dirty: bool | None
    command: str  # the hipmigrate command line that ran the benchmarks

    def as_dict(self) -> dict:
        return asdict(self)


def of_this_machine(project: Path, command: str) -> Fingerprint:
    def tool(*args: str, env: dict | None = None) -> str | None:
        found = _which(args[0])
        if found is None:
            return None
        try:
            proc = subprocess.run([found, *args[1:]], capture_output=True, text=True, errors="replace",
                                  timeout=TIMEOUT, stdin=subprocess.DEVNULL, env=env)
        except (OSError, subprocess.SubprocessError):
            return None
        return proc.stdout if proc.returncode == 0 else None

    gpus, gpu_tool, driver, cuda = [], None, None, None
    nvidia = tool("nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader")
    if nvidia:
        rows = parse_nvidia_smi_query(nvidia)
        gpus, gpu_tool = [name for name, _ in rows], "nvidia-smi"
        driver = next((d for _, d in rows if d), None)
        cuda = parse_nvidia_smi_cuda(tool("nvidia-smi") or "")
    rocm_version = _rocm_release()
    if not gpus:
        amd = parsers.parse_amd_smi_asic(tool("amd-smi", "static", "--asic", "--json") or "")
        if amd:
            gpus, gpu_tool = [g.name or g.gfx or "unknown" for g in amd], "amd-smi"
        else:
            smi = parsers.parse_rocm_smi_json(tool("rocm-smi", "--showproductname", "--json") or "")
            if smi:
                gpus, gpu_tool = [g.name or g.gfx or "unknown" for g in smi], "rocm-smi"
        if gpu_tool == "amd-smi":
            fields = parsers.parse_version_fields(tool("amd-smi", "version") or "")
            rocm_version = rocm_version or fields.get("ROCm")
        if gpu_tool is not None:
            driver = parse_rocm_smi_driver(tool("rocm-smi", "--showdriverversion") or "")
    nvcc = parse_nvcc_version(tool("nvcc", "--version") or "")
    hip_env = dict(os.environ, HIP_PLATFORM=os.environ.get("HIP_PLATFORM", "amd"))
    hipconfig = tool("hipconfig", "--version", env=hip_env)
    commit, dirty = _git(project)
    return Fingerprint(
        gpu_name=" + ".join(dict.fromkeys(gpus)) if gpus else None, gpu_count=len(gpus) if gpu_tool else None,
        gpu_tool=gpu_tool, driver=driver, cuda_version=cuda or (nvcc.split(",")[0].removeprefix("release ") if nvcc else None),
        rocm_version=rocm_version, hip_version=parsers.parse_first_word(hipconfig) if hipconfig else None,
        hipcc_version=parse_hipcc_version(tool("hipcc", "--version", env=hip_env) or ""), nvcc_version=nvcc,
        host=socket.gethostname(), os=f"{platform.system()} {platform.release()} {platform.machine()}",
        git_commit=commit, git_dirty=dirty, command=command)


def parse_nvidia_smi_query(text: str) -> list[tuple[str, str | None]]:
    """`nvidia-smi --query-gpu=name,driver_version --format=csv,noheader`: one 'NVIDIA H200, 580.159.04' a GPU."""
    rows = []
    for line in text.splitlines():
        name, _, driver = line.strip().rpartition(",")
        if name.strip():
            rows.append((name.strip(), driver.strip() or None))
    return rows


def parse_nvidia_smi_cuda(text: str) -> str | None:
    """The 'CUDA Version: 13.0' of nvidia-smi's banner: the newest CUDA the driver supports."""
    m = re.search(r"CUDA Version:\s*([0-9][0-9.]*)", text)
    return m.group(1) if m else None


def parse_nvcc_version(text: str) -> str | None:
    """`nvcc --version`'s 'Cuda compilation tools, release 13.0, V13.0.88' as 'release 13.0, V13.0.88'."""
    m = re.search(r"(release [0-9][0-9.]*, V[0-9][0-9.]*)", text)
    return m.group(1) if m else None


def parse_hipcc_version(text: str) -> str | None:
    """`hipcc --version`: its 'HIP version: 5.2.21153-0' line."""
    m = re.search(r"HIP version:\s*(\S+)", text)
    return m.group(1) if m else None


def parse_rocm_smi_driver(text: str) -> str | None:
    """`rocm-smi --showdriverversion`: 'Driver version: 6.8.5'."""
    m = re.search(r"Driver version:\s*(\S+)", parsers.strip_ansi(text))
    return m.group(1) if m else None


def _which(name: str) -> str | None:
    found = shutil.which(name)
    if found or name in ("nvcc", "nvidia-smi"):
        return found
    for root in (os.environ.get("ROCM_PATH"), "/opt/rocm"):
        if root and (Path(root) / "bin" / name).is_file():
            return str(Path(root) / "bin" / name)
    return None


def _rocm_release() -> str | None:
    for root in (os.environ.get("ROCM_PATH"), "/opt/rocm"):
        info = Path(root) / ".info" / "version" if root else None
        if info is not None and info.is_file():
            return info.read_text(errors="replace").strip() or None
    return None


def _git(project: Path) -> tuple[str | None, bool | None]:
    try:
        head = git.run(project, "rev-parse", "HEAD", timeout=TIMEOUT)
        if head.returncode != 0:
            return None, None
        status = git.run(project, "status", "--porcelain", "--untracked-files=no", timeout=TIMEOUT)
    except git.Unavailable:
        return None, None
    commit = head.stdout.decode("utf-8", "replace").strip() or None
    return commit, (bool(status.stdout.strip()) if status.returncode == 0 else None)


def machine(fp: dict) -> str:
    """One line about the machine of a fingerprint; what no tool reported reads "unknown"."""
    def known(key: str) -> str:
        value = fp.get(key)
        return "unknown" if value is None else str(value)

    gpus = f"{known('gpu_name')} x{fp['gpu_count']}" if fp.get("gpu_count") else "GPU unknown"
    parts = [gpus, f"driver {known('driver')}"]
    if fp.get("cuda_version") or fp.get("nvcc_version"):
        parts.append(f"CUDA {known('cuda_version')}, nvcc {known('nvcc_version')}")
    if fp.get("rocm_version") or fp.get("hip_version") or fp.get("hipcc_version"):
        parts.append(f"ROCm {known('rocm_version')}, HIP {known('hip_version')}, hipcc {known('hipcc_version')}")
    commit = fp.get("git_commit")
    parts.append(f"host {known('host')}, commit {commit[:12] + ('+dirty' if fp.get('git_dirty') else '') if commit else 'unknown'}")
    return "; ".join(parts)
