"""The README's two commands: the test command is exactly what .ci/run runs, and the install-and-migrate
command works in a fresh virtual environment (a real `pip install .`, not the editable checkout); the packages
it installs. The README stays a landing page (200 lines at most), and every relative link of it, of docs/ and of
benchmarks/README.md resolves."""
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def readme_commands() -> list[str]:
    blocks = re.findall(r"```\n(.*?)\n```", (ROOT / "README.md").read_text(), re.S)
    return [b.strip() for b in blocks[:2]]


def test_ci_runs_the_readme_test_command():
    _, test_command = readme_commands()
    ci_lines = [line.strip() for line in (ROOT / ".ci/run").read_text().splitlines()]
    assert test_command in ci_lines


@pytest.mark.slow
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
    # every package is installed (found by setuptools, no list by hand), rules/ as migrate.rules and never as `rules`
    probe = ("import importlib.util, migrate.rules.cpp.kernel_launch_chevrons as m, migrate.buildfiles.cmake; "
             "print(m.__file__); print(importlib.util.find_spec('rules'))")
    proc = subprocess.run([str(bin_dir / "python"), "-c", probe], cwd=tmp_path, capture_output=True, text=True)
    site = next((tmp_path / "venv" / "lib").glob("python3*")) / "site-packages"
    assert proc.stdout.splitlines() == [str(site / "migrate" / "rules" / "cpp" / "kernel_launch_chevrons.py"), "None"]
    assert not (site / "migrate" / "rules").is_symlink() and (site / "migrate" / "rules" / "data" / "arity.toml").is_file()


def test_rules_are_the_package_migrate_rules_in_a_checkout_too():
    """rules/ is imported as migrate.rules through the link migrate/rules, under the names an installed copy has."""
    from migrate.packs import rules_root
    from migrate.registry import default_registry

    assert (ROOT / "migrate" / "rules").is_symlink() and (ROOT / "migrate" / "rules").resolve() == ROOT / "rules"
    assert rules_root().resolve() == ROOT / "rules"
    rules = default_registry().rules
    assert all(r.__module__.startswith("migrate.rules.") for r in rules)
    assert {sys.modules[r.__module__].__file__ for r in rules} == {
        str(ROOT / "migrate" / p.relative_to(ROOT)) for p in (ROOT / "rules").rglob("*.py") if not p.name.startswith("_")}


DOCS = [ROOT / "README.md", ROOT / "benchmarks" / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def without_code(text: str) -> str:
    """The text outside fenced code blocks and inline code spans."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    return re.sub(r"`[^`\n]*`", "", text)


def anchors(path: Path) -> set[str]:
    """The anchors GitHub makes of a page's headings: lower case, punctuation but - and _ dropped, spaces as -."""
    out: set[str] = set()
    for heading in re.findall(r"^#+ (.*)$", re.sub(r"^```.*?^```", "", path.read_text(), flags=re.S | re.M), re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        n = 0
        while (slug if n == 0 else f"{slug}-{n}") in out:
            n += 1
        out.add(slug if n == 0 else f"{slug}-{n}")
    return out


def test_readme_is_a_landing_page():
    assert len((ROOT / "README.md").read_text().splitlines()) <= 200


@pytest.mark.parametrize("page", DOCS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_resolves(page):
    """Every relative link of the README and of docs/ names a file or folder that exists, and a #fragment names a
    heading of its page."""
    broken = []
    for target in re.findall(r"\]\(([^)\s]+)\)", without_code(page.read_text())):
        if re.match(r"[a-z]+:", target):
            continue
        file, _, fragment = target.partition("#")
        path = (page.parent / file).resolve() if file else page
        if not path.exists():
            broken.append(target)
        elif fragment and path.suffix == ".md" and fragment not in anchors(path):
            broken.append(target)
    assert broken == []
