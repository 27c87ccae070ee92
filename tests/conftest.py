import os
import shutil
from pathlib import Path

import pytest

from migrate.cpp import hipify_perl

ROOT = Path(__file__).resolve().parent.parent
REQUIRE_TOOLS = os.environ.get("HIPMIGRATE_REQUIRE_TOOLS") == "1"  # set by .ci/run: a missing tool fails


def need_tool(name: str) -> str:
    """Path of an external tool; skip without it, except in CI where its absence is a failure."""
    path = str(hipify_perl.find() or "") if name == "hipify-perl" else shutil.which(name)
    if not path:
        if REQUIRE_TOOLS:
            pytest.fail(f"{name} is required in CI (HIPMIGRATE_REQUIRE_TOOLS=1) but was not found: "
                        "run scripts/install-toolchain")
        pytest.skip(f"{name} not installed (scripts/install-toolchain installs it)")
    return path


@pytest.fixture(scope="session", autouse=True)
def compiler_scratch(tmp_path_factory):
    """The tools the tests run get the session's own temporary folder: hipcc leaves an empty folder there for each
    source it compiles (Debian's clang), hundreds per run, which must not pile up in /tmp."""
    patch = pytest.MonkeyPatch()
    patch.setenv("TMPDIR", str(tmp_path_factory.mktemp("tmpdir")))
    yield
    patch.undo()


@pytest.fixture(scope="session")
def hipcc() -> str:
    return need_tool("hipcc")


@pytest.fixture(scope="session")
def hipcc64() -> str:
    """The HIP 6.4 toolchain's hipcc (scripts/install-toolchain puts it in a Debian sid root)."""
    from migrate import toolchain

    path = toolchain.TOOLCHAIN / "hip-6.4" / "bin" / "hipcc"
    if not path.is_file():
        if REQUIRE_TOOLS:
            pytest.fail(f"the HIP 6.4 toolchain is required in CI (HIPMIGRATE_REQUIRE_TOOLS=1) but {path} is missing: "
                        "run scripts/install-toolchain")
        pytest.skip(f"no HIP 6.4 toolchain at {path} (scripts/install-toolchain installs it)")
    return str(path)


@pytest.fixture(scope="session")
def hipify() -> str:
    return need_tool("hipify-perl")


def pytest_addoption(parser):
    parser.addoption("--update-golden", action="store_true",
                     help="rewrite samples/*/expected from the current engine instead of comparing")


@pytest.fixture(scope="session")
def update_golden(request) -> bool:
    return request.config.getoption("--update-golden")
