"""The HTML report: its snapshot, that it is one self-contained file, and the page as headless Chromium
renders it (the summary numbers read off the DOM after rendering, and a screenshot kept in the test's tmp
folder). Chromium is Debian's `chromium` (scripts/install-toolchain); without it these skip, except in CI."""
from __future__ import annotations

import json
import re
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tests.conftest import need_tool
from tests.helpers import cli
from tests.test_report import BENCH, check_snapshot, dst, report  # noqa: F401  (dst is a fixture)


class Ids(HTMLParser):
    """The text of every element with an id, and the SVG benchmark rows' data attributes."""

    def __init__(self):
        super().__init__()
        self.text: dict[str, str] = {}
        self.bench: list[dict] = []
        self.open: list[str | None] = []
        self.tags: set[str] = set()
        self.urls: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.add(tag)
        self.urls += [v for k, v in attrs if k in ("src", "href") and v]
        if tag == "g" and a.get("class") == "bench":
            self.bench.append(a)
        if tag in ("meta", "br", "link", "img", "input", "circle", "line", "rect"):
            return
        self.open.append(a.get("id"))
        if a.get("id"):
            self.text[a["id"]] = ""

    def handle_endtag(self, tag):
        if tag in ("meta", "br", "link", "img", "input", "circle", "line", "rect"):
            return
        if self.open:
            self.open.pop()

    def handle_data(self, data):
        for ident in self.open:
            if ident:
                self.text[ident] += data


def parse(html: str) -> Ids:
    ids = Ids()
    ids.feed(html)
    return ids


def test_snapshot(dst, update_golden):  # noqa: F811
    check_snapshot("report.html", report(dst, "html"), update_golden)


def test_one_self_contained_file(dst):  # noqa: F811
    html = cli("report", dst, "--output-format", "html", "--bench", *BENCH).stdout
    page = parse(html)
    assert "script" not in page.tags and page.urls == []
    assert not re.search(r"https?://|//[a-z0-9.-]+\.[a-z]{2,}/|@import|url\(", html)
    assert page.text["summary-files"] == "3" and page.text["summary-regressions"] == "0"
    # per-file diffs, coloured by language: the include line is a preprocessor token on a removed line
    assert '<tr class="del"><td class="sign">-</td><td><span class="cp">#include</span>' in html
    assert [b["data-name"] for b in page.bench][:2] == ["saxpy_streams", "block_reduce"]


def chromium(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    exe = need_tool("chromium")
    return subprocess.run([exe, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                           f"--user-data-dir={cwd / 'profile'}", *args], capture_output=True, text=True, timeout=120,
                          cwd=cwd)


@pytest.mark.browser
def test_chromium_renders_the_summary(dst, tmp_path):  # noqa: F811
    page = tmp_path / "report.html"
    assert cli("report", dst, "--output-format", "html", "-o", page, "--bench", *BENCH).exit_code == 0
    doc = json.loads(cli("report", dst, "--output-format", "json", "--bench", *BENCH).stdout)
    dom = chromium("--dump-dom", page.as_uri(), cwd=tmp_path)
    assert dom.returncode == 0, dom.stderr[-2000:]
    shown = parse(dom.stdout)
    m, b, c = doc["migration"]["summary"], doc["build"]["summary"], doc["comparison"]
    expected = {"files": m["files"], "files-changed": m["files_changed"], "lines": m["lines"],
                "conversions": m["conversions"], "unsupported": m["unsupported"], "hazards": m["hazards"],
                "hazards-fixed": m["hazards_fixed"], "effort": m["effort"], "compiles": b["compiles"],
                "compiles-ok": b["ok"], "compiles-failed": b["failed"], "benchmarks": len(c["benchmarks"]),
                "regressions": c["regressions"]}
    assert {k: shown.text[f"summary-{k}"] for k in expected} == {k: str(v) for k, v in expected.items()}
    assert expected["files"] == 3 and expected["hazards"] == 3 and expected["compiles-failed"] == 2
    ratios = {g["data-name"]: float(g["data-ratio"]) for g in shown.bench}
    assert ratios == {x["name"]: round(x["ratio"], 4) for x in c["benchmarks"]}
    shot = tmp_path / "report.png"
    result = chromium(f"--screenshot={shot}", "--window-size=1280,1800", page.as_uri(), cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-2000:]
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000  # a rendered page, not a blank one


@pytest.mark.browser
def test_the_first_screen_shows_the_blockers(dst, tmp_path):  # noqa: F811
    """In a 1280x800 window the blockers table is on the first screen, open: what stops the build, by cause, with a
    shared diagnostic once. A copy of the page gets a line of script that writes where the table ends into the
    title, and Chromium's DOM after rendering is read back (the report itself has no script)."""
    page = tmp_path / "report.html"
    assert cli("report", dst, "--output-format", "html", "-o", page).exit_code == 0
    probe = tmp_path / "probe.html"
    probe.write_text(page.read_text().replace(
        "</body>", "<script>const r = document.getElementById('blockers-table').getBoundingClientRect();"
                   "document.title = 'bottom=' + Math.round(r.bottom);</script></body>"))
    dom = chromium("--window-size=1280,800", "--dump-dom", probe.as_uri(), cwd=tmp_path)
    assert dom.returncode == 0, dom.stderr[-2000:]
    bottom = int(re.search(r"<title>bottom=(\d+)</title>", dom.stdout).group(1))
    assert 0 < bottom <= 800, bottom
    shown = parse(page.read_text())
    rows = shown.text["blockers-table"]
    # the 32-bit ballot (HAZ003) builds and computes wrong: a hazard to review, not a blocker
    assert "CPP006" in rows and "HAZ003" not in rows
    assert page.read_text().index('id="blockers"') < page.read_text().index('id="migration"')
