"""Running one compile of the kernel diff and keeping what it printed, or why it failed."""
from __future__ import annotations

import subprocess
from pathlib import Path

TIMEOUT = 900


def output(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> tuple[str, str | None]:
    """(what the compiler printed, None), or ("", why it failed: its first error line)."""
    tool = Path(cmd[0]).name
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, errors="surrogateescape", cwd=cwd, timeout=TIMEOUT, env=env,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return "", f"{tool} timed out after {TIMEOUT} s"
    text = proc.stdout + proc.stderr
    if proc.returncode != 0:
        first = next((line for line in text.splitlines() if "error" in line), text.strip()[:300])
        return "", f"{tool} failed: {first.strip()}"
    return text, None
