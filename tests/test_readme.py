"""The README's two commands: the test command is exactly what .ci/run runs, and the install-and-migrate
command works in a fresh virtual environment (a real `pip install .`, not the editable checkout)."""
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def readme_commands() -> list[str]:
    blocks = re.findall(r"```\n(.*?)\n```", (ROOT / "README.md").read_text(), re.S)
    return [b.strip() for b in blocks[:2]]


def test_ci_runs_the_readme_test_command():
    _, test_command = readme_commands()
    ci_lines = [line.strip() for line in (ROOT / ".ci/run").read_text().splitlines()]
    assert test_command in ci_lines


def test_install_and_migrate_command_in_a_fresh_venv(tmp_path):
    install_and_run, _ = readme_commands()
    pip_part, run_part = install_and_run.split(" && ")
    assert pip_part == "pip install ." and run_part.startswith("hipmigrate run samples/")
    subprocess.run([sys.executable, "-m", "venv", str(tmp_path / "venv")], check=True)
    bin_dir = tmp_path / "venv" / "bin"
    checkout = tmp_path / "checkout"
    def ignore(folder: str, names: list[str]) -> set[str]:
        top = Path(folder) == ROOT
        return {n for n in names if n in (".git", "__pycache__") or n.endswith(".egg-info") or (top and n == "build")}

    shutil.copytree(ROOT, checkout, ignore=ignore)
    subprocess.run([str(bin_dir / "pip"), "install", "-q", "."], cwd=checkout, check=True, timeout=900)
    out = tmp_path / "migrated"
    args = run_part.split()[1:]
    args[args.index("--out") + 1] = str(out)
    proc = subprocess.run([str(bin_dir / "hipmigrate"), *args], cwd=checkout, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    sample = checkout / args[1]
    expected = sample.parent / "expected"
    assert (out / "saxpy_streams.cu").read_bytes() != (sample / "saxpy_streams.cu").read_bytes()
    assert "hipMemcpyAsync" in (out / "saxpy_streams.cu").read_text()
    assert "engine builtin" in proc.stdout and "runtime" in proc.stdout
    # without --hip-version the target is the installed hipcc's (5.2 here) or the packs' newest
    if shutil.which("hipconfig"):
        assert (out / "saxpy_streams.cu").read_bytes() == (expected / "saxpy_streams.cu").read_bytes()


def test_every_package_folder_is_installed():
    import tomllib

    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    folders = {"migrate." + p.relative_to(ROOT / "migrate").as_posix().replace("/", ".")
               for p in (ROOT / "migrate").rglob("*") if p.is_dir() and p.name != "__pycache__"}
    folders |= {"migrate.rules." + p.relative_to(ROOT / "rules").as_posix().replace("/", ".")
                for p in (ROOT / "rules").rglob("*") if p.is_dir() and p.name != "__pycache__"}
    assert folders | {"migrate", "migrate.rules"} == listed
