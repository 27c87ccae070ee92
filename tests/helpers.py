"""Small helpers shared by the tests: build trees, run the CLI in-process."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

from click.testing import CliRunner

from migrate.cli import main

ROOT = Path(__file__).resolve().parent.parent


def write_tree(root: Path, files: dict[str, bytes | str]) -> Path:
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content.encode() if isinstance(content, str) else content)
    return root


def analysed_files(root: Path, files: dict[str, str], **options) -> dict:
    """Write `files` under `root` and analyse the tree for HIP 6.2 (with `options`): each file's result by path."""
    from migrate import api
    from migrate.options import Options

    write_tree(root, files)
    _, result = api.analyse(root, Options(hip_version="6.2", **options))
    return {f.path: f for f in result.files}


ENV_CODES = {f"PY0{n}" for n in range(20, 40)}  # the environment-variable rules


def env_findings(result) -> list[tuple[str, int]]:
    """(code, line) of the environment-variable findings, in document order (rules report one after the other)."""
    found = sorted((f for f in result.findings if f.code in ENV_CODES), key=lambda f: (f.span.start, f.code))
    return [(f.code, f.span.line) for f in found]


def read_tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def cli(*args: str):
    """Run hipmigrate in-process; returns click's Result (exit_code, stdout, stderr)."""
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def cli_json(*args: str) -> tuple[int, dict]:
    result = cli(*args, "--output-format", "json")
    return result.exit_code, json.loads(result.stdout)


def git(root: Path, *args: str) -> str:
    """git in `root` (the test must be marked @pytest.mark.git)."""
    from tests.marks import need_tool

    out = subprocess.run([need_tool("git"), "-C", str(root), *args], capture_output=True, text=True, check=True,
                         env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid",
                              "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.invalid",
                              "HOME": str(root), "PATH": "/usr/bin:/bin"})
    return out.stdout


def git_repo(root: Path, files: dict[str, bytes | str]) -> Path:
    write_tree(root, files)
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "base")
    return root


def load_script(monkeypatch, name: str):
    """scripts/NAME.py as a module (the generators are scripts, not package modules); they import their
    helpers (packgen) from their own folder."""
    import importlib.util
    import sys

    scripts = ROOT / "scripts"
    monkeypatch.syspath_prepend(str(scripts))
    spec = importlib.util.spec_from_file_location(name, scripts / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, name, module)
    spec.loader.exec_module(module)
    return module


# The HIP release a sample's golden tree (samples/<name>/expected) is migrated for: Debian 12's HIP 5.2, unless the
# sample needs a newer one. bf16_layernorm: the bf16 intrinsics (__bfloat162float, __float2bfloat16) came with 5.7.
GOLDEN_RELEASE = {"bf16_layernorm": "6.4",
                  "nccl_nvtx_step": "6.4",  # roctx.h: Debian 12 packages no roctracer for its HIP 5.2
                  "cudnn_conv": "6.4",  # MIOpen: Debian 12 packages none for its HIP 5.2
                  "cublaslt_gelu": "6.4"}  # hipBLASLt: Debian 12 packages none for its HIP 5.2


def golden_release(sample: Path) -> str:
    return GOLDEN_RELEASE.get(sample.name, "5.2")
