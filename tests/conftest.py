import os
from pathlib import Path

import pytest

from migrate.verify import compile_cache
from tests.marks import (FIXTURE_MARKS, REQUIRE_TOOLS, RUNNING, check_mark, missing, need_tool,  # noqa: F401
                         need_torch, pytest_make_collect_report, pytest_runtest_makereport)

ROOT = Path(__file__).resolve().parent.parent


def pytest_collection_modifyitems(items):
    """A test that uses a tool's fixture gets the tool's mark (tests/marks.py)."""
    for item in items:
        for fixture in FIXTURE_MARKS.keys() & set(getattr(item, "fixturenames", ())):
            item.add_marker(FIXTURE_MARKS[fixture])


@pytest.fixture(autouse=True)
def _marks_of_the_running_test(request):
    RUNNING.update(test=request.node.nodeid, marks=frozenset(m.name for m in request.node.iter_markers()))
    yield
    RUNNING.update(test="", marks=frozenset())


@pytest.fixture(scope="session", autouse=True)
def compiler_scratch(tmp_path_factory):
    """The tools the tests run get the session's own temporary folder: hipcc leaves an empty folder there for each
    source it compiles (Debian's clang), hundreds per run, which must not pile up in /tmp."""
    patch = pytest.MonkeyPatch()
    patch.setenv("TMPDIR", str(tmp_path_factory.mktemp("tmpdir")))
    # the compile cache (migrate/verify/compile_cache.py) of the tests' own compiles (tests/compile.py) and of the
    # `hipmigrate build`s they run, shared by every worker of an xdist run: the run's own, unless the environment
    # names one already (a folder kept between runs)
    if not compile_cache.folder():
        base = tmp_path_factory.getbasetemp()
        cache = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "compile-cache"
        cache.mkdir(exist_ok=True)
        patch.setenv(compile_cache.ENV, str(cache))
    yield
    patch.undo()


@pytest.fixture(scope="session")
def hipcc() -> str:
    return need_tool("hipcc")


def root_hipcc(release: str) -> str:
    """The hipcc of the HIP `release` toolchain that scripts/install-toolchain puts in a Debian sid root of its own
    (6.4 from sid, 7.2 from experimental)."""
    from migrate import toolchain

    check_mark("hipcc")
    path = toolchain.TOOLCHAIN / f"hip-{release}" / "bin" / "hipcc"
    if not path.is_file():
        missing(f"the HIP {release} toolchain ({path})", "scripts/install-toolchain")
    return str(path)


@pytest.fixture(scope="session")
def hipcc64() -> str:
    return root_hipcc("6.4")


@pytest.fixture(scope="session")
def hipcc72() -> str:
    return root_hipcc("7.2")


@pytest.fixture(scope="session")
def hipify() -> str:
    return need_tool("hipify-perl")


def pytest_addoption(parser):
    parser.addoption("--update-golden", action="store_true",
                     help="rewrite samples/*/expected from the current engine instead of comparing")


@pytest.fixture(scope="session")
def update_golden(request) -> bool:
    return request.config.getoption("--update-golden")
