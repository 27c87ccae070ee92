"""What a test needs beyond Python and the package's dependencies, as a mark (registered in pyproject.toml), so that
`pytest -m "not hipcc and not nvcc and not hipify_perl and not torch and not browser"` runs where none of them is
installed, while CI (HIPMIGRATE_REQUIRE_TOOLS=1) fails a test whose tool is missing instead of skipping it.

tests/conftest.py marks the tests that use the tool fixtures and tells this module which test is running;
need_tool/need_torch fail a test that uses a tool without its mark. In CI every other skip made while tests are
collected or run (a tool looked up some other way, a missing module) is a failure too; a `skip`/`skipif` mark
still skips. Common build tools (make, g++, readelf) have
no mark. The state lives here, not in conftest.py, because pytest imports conftest.py under another name than the
tests' `from tests.conftest import ...`.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from migrate.cpp import hipify_perl

ROOT = Path(__file__).resolve().parent.parent
REQUIRE_TOOLS = os.environ.get("HIPMIGRATE_REQUIRE_TOOLS") == "1"  # set by .ci/run: a missing tool fails
TOOL_MARKS = {"hipcc": "hipcc", "hipify-perl": "hipify_perl", "nvcc": "nvcc", "chromium": "browser", "git": "git",
              "torch": "torch"}
FIXTURE_MARKS = {"hipcc": "hipcc", "hipcc64": "hipcc", "hipcc72": "hipcc", "hipify": "hipify_perl"}
RUNNING: dict[str, object] = {"test": "", "marks": frozenset()}  # set by conftest.py around each test


def check_mark(name: str, mark: str | None = None) -> None:
    mark = mark or TOOL_MARKS.get(name)
    if mark and RUNNING["test"] and mark not in RUNNING["marks"]:
        pytest.fail(f"{RUNNING['test']} uses {name} but is not marked @pytest.mark.{mark}")


def missing(what: str, install: str) -> None:
    if REQUIRE_TOOLS:
        pytest.fail(f"{what} is required in CI (HIPMIGRATE_REQUIRE_TOOLS=1) but was not found: {install}")
    pytest.skip(f"{what} not installed ({install} installs it)")


def need_tool(name: str, mark: str | None = None) -> str:
    """Path of an external tool; skip without it, except in CI where its absence is a failure. `mark`: the test's
    mark for a tool TOOL_MARKS does not name."""
    check_mark(name, mark)
    path = str(hipify_perl.find() or "") if name == "hipify-perl" else shutil.which(name)
    if not path:
        missing(name, "scripts/install-toolchain")
    return path


def need_torch():
    """The torch module (the CPU build of the test extra); skip without it, except in CI."""
    check_mark("torch")
    try:
        import torch
    except ImportError:
        missing("torch", "pip install -e '.[test]'")
    return torch


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """In CI (HIPMIGRATE_REQUIRE_TOOLS=1) a test skipped while it ran, or while its fixtures were set up, fails."""
    report = (yield).get_result()
    if REQUIRE_TOOLS and report.skipped and call.when in ("setup", "call") and not hasattr(report, "wasxfail") \
            and not any(item.iter_markers("skip")) and not any(item.iter_markers("skipif")):
        _fail_skip(report)


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector):
    """In CI a test module skipped while it is collected (`pytest.importorskip` of a missing module) fails."""
    report = (yield).get_result()
    if REQUIRE_TOOLS and report.skipped:
        _fail_skip(report)


def _fail_skip(report) -> None:
    reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
    report.outcome = "failed"
    report.longrepr = f"skipped in CI (HIPMIGRATE_REQUIRE_TOOLS=1), where everything the tests need is installed: {reason}"
