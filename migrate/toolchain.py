"""What HIP toolchain this machine has: hipcc/hipconfig and the HIP version they report."""
from __future__ import annotations

import re
import shutil
import subprocess
from functools import lru_cache


@lru_cache(maxsize=1)
def installed_hip_version() -> str | None:
    """major.minor of the installed HIP (hipconfig --version), or None without one."""
    tool = shutil.which("hipconfig")
    if tool is None:
        return None
    try:
        out = subprocess.run([tool, "--version"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    m = re.match(r"\s*(\d+)\.(\d+)", out)
    return f"{m.group(1)}.{m.group(2)}" if m else None
