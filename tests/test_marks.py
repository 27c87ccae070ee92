"""In CI (HIPMIGRATE_REQUIRE_TOOLS=1) a skip made while a test runs or is collected fails, a skip mark still skips;
elsewhere both skip. Run in a pytest of its own over a small test file, with tests/marks.py as its plugin."""
import subprocess
import sys

from tests.helpers import ROOT, write_tree

SKIPPING = '''import pytest

def test_dynamic():
    pytest.skip("nvcc not installed")

@pytest.mark.skipif(True, reason="a fixed condition")
def test_marked():
    pass
'''
MISSING = "import pytest\npytest.importorskip('nope')\n"


def run(tmp_path, require: str, name: str, text: str) -> subprocess.CompletedProcess:
    write_tree(tmp_path, {name: text})
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "HIPMIGRATE_REQUIRE_TOOLS": require}
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "tests.marks", "-rfs",
                           str(tmp_path / name)], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)


def test_a_skip_fails_in_ci(tmp_path):
    result = run(tmp_path, "1", "test_skips.py", SKIPPING)
    assert result.returncode == 1, result.stdout
    assert "skipped in CI (HIPMIGRATE_REQUIRE_TOOLS=1), where everything the tests need is installed: " \
           "Skipped: nvcc not installed" in result.stdout
    assert result.stdout.splitlines()[-1].startswith("1 failed, 1 skipped in ")
    missing = run(tmp_path, "1", "test_missing.py", MISSING)  # a module skipped at collection stops the run
    assert missing.returncode == 2 and "ERROR collecting test_missing.py" in missing.stdout
    assert "where everything the tests need is installed: Skipped: could not import 'nope'" in missing.stdout


def test_a_skip_skips_elsewhere(tmp_path):
    result = run(tmp_path, "", "test_skips.py", SKIPPING)
    assert result.returncode == 0 and result.stdout.splitlines()[-1].startswith("2 skipped in "), result.stdout
    assert run(tmp_path, "", "test_missing.py", MISSING).stdout.splitlines()[-1].startswith("1 skipped in ")
