"""The report's "Kernels" section in every format, from a kernels.json that `build --kernels` wrote for
samples/kernel_pressure (tests/fixtures/kernels/README.md says how): snapshots under tests/snapshots/report/, the JSON
against its schema, SARIF's PRF results, the HTML in Chromium (sortable without script, the chart), and measured
per-kernel times joined from the H200 results of `bench --kernels` (samples/bench/kernels-h200*.json)."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import jsonschema
import pytest

from tests.helpers import cli
from tests.marks import need_tool
from tests.test_report import SCHEMA, TIME, check_snapshot

ROOT = Path(__file__).resolve().parent.parent
STATE = ROOT / "tests" / "fixtures" / "kernels" / "kernels.json"
MEASURED = (ROOT / "samples" / "bench" / "kernels-h200.json", ROOT / "samples" / "bench" / "kernels-h200-run2.json")


@pytest.fixture(scope="module")
def dst(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("kernels") / "dst"
    (out / ".hipmigrate").mkdir(parents=True)
    shutil.copy(STATE, out / ".hipmigrate" / "kernels.json")
    return out


def report(dst: Path, fmt: str, *extra: str) -> str:
    result = cli("report", dst, "--output-format", fmt, *extra)
    assert result.exit_code == 0, result.output
    return TIME.sub("<TIME>", result.stdout.replace(str(dst), "<DST>"))


@pytest.mark.parametrize("fmt,name", [("text", "kernels.txt"), ("md", "kernels.md"), ("json", "kernels.json"),
                                      ("sarif", "kernels.sarif"), ("html", "kernels.html")])
def test_snapshot(dst, fmt, name, update_golden):
    check_snapshot(name, report(dst, fmt), update_golden)


def test_json_section_follows_the_schema(dst):
    doc = json.loads(report(dst, "json"))
    jsonschema.validate(doc, json.loads(SCHEMA.read_text()))
    rows = {k["name"].split("(")[0]: k for k in doc["kernels"]["kernels"]}
    assert rows["histogram_bins"]["occupancy"]["gfx942@6.4"] == {"resident": 8, "most": 32, "blocks": 2,
                                                                 "limit": "LDS", "fraction": 0.25, "ratio": 1 / 3}
    assert rows["histogram_bins"]["cuda_occupancy"]["fraction"] == 0.75 and rows["row_sums"]["measured"] is None


def test_sarif_carries_the_kernel_findings(dst):
    run = json.loads(report(dst, "sarif"))["runs"][0]
    results = [(r["ruleId"], r["locations"][0]["physicalLocation"]["region"]["startLine"], r["level"])
               for r in run["results"]]
    assert results == [("PRF001", 33, "warning"), ("PRF001", 33, "warning"), ("PRF002", 62, "error"),
                       ("PRF003", 75, "warning"), ("PRF004", 90, "warning"), ("PRF004", 90, "warning")]
    assert [r["name"] for r in run["tool"]["driver"]["rules"]] == [
        "kernels:spills-or-scratch-on-AMD-where-CUDA-has-none", "kernels:shared-memory-over-the-target's-LDS-per-workgroup",
        "kernels:occupancy-below-CUDA's", "kernels:block-size-not-a-multiple-of-64-on-a-wave64-target"]


@pytest.mark.browser
def test_html_table_sorts_without_script(dst, tmp_path):
    """Chromium renders the section; with the 'ratio' order picked, the worst ratio comes first."""
    chromium = need_tool("chromium")
    page = report(dst, "html")
    assert "<script" not in page and page.count('<circle class="kernel"') == 8
    picked = page.replace('id="sort-order" checked', 'id="sort-order"').replace('id="sort-ratio"', 'id="sort-ratio" checked')
    probe = picked.replace("</body>", "<script>const rows = [...document.querySelectorAll('#kernels tbody')]"
                           ".filter(b => getComputedStyle(b).display !== 'none')"
                           ".map(b => [...b.rows].map(r => r.cells[0].textContent).filter(t => t).join(','));"
                           "document.title = rows.join('|');</script></body>")
    (tmp_path / "k.html").write_text(probe)
    dom = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom",
                          f"file://{tmp_path / 'k.html'}"], capture_output=True, text=True, timeout=120).stdout
    assert "<title>stage_rows,histogram_bins,row_sums,tile_accumulate</title>" in dom


@pytest.mark.hipcc
@pytest.mark.nvcc
def test_measured_times_join_the_static_diff(tmp_path, request):
    """block_reduce: the static diff made here (HIP 6.4, gfx942), the H200's two profiled runs compared."""
    hipcc64 = request.getfixturevalue("hipcc64")
    need_tool("nvcc")
    dst = tmp_path / "dst"
    assert cli("run", ROOT / "samples" / "block_reduce" / "src", "--out", dst, "--hip-version", "6.4").exit_code == 0
    assert cli("build", dst, "--kernels", "--hipcc", hipcc64, "--offload-arch", "gfx942").exit_code == 0
    doc = json.loads(report(dst, "json", "--bench", *(str(p) for p in MEASURED)))
    (row,) = doc["kernels"]["kernels"]
    # both runs were on the H200: the hardware expects the same time, and 1.017 is within the 5 % threshold of it
    assert row["measured"] == {"benchmark": "block_reduce", "base_median_us": 31.136, "candidate_median_us": 31.68,
                               "ratio": pytest.approx(1.01747, abs=1e-5), "verdict": "same",
                               "hardware": {"base": "H200", "candidate": "H200", "memory": 1.0, "compute": 1.0,
                                            "explains": True}}
    jsonschema.validate(doc, json.loads(SCHEMA.read_text()))
    md = report(dst, "md", "--bench", *(str(p) for p in MEASURED))
    assert "| base us | cand. us | time ratio | verdict | hardware |" in md
    assert "| 31.14 | 31.68 | 1.017 | same | explains it |" in md


def test_hardware_expectation_per_target(dst):
    """H200 (4.8 TB/s, 67 FP32 TFLOPS) against MI300X (5.3 TB/s, 163.4) and MI355X (8 TB/s, 157.3)."""
    doc = json.loads(report(dst, "json"))
    assert doc["kernels"]["expectations"] == {
        "gfx942@6.4": {"base": "H200", "candidate": "MI300X", "memory": 0.9057, "compute": 0.41},
        "gfx950@6.4": {"base": "H200", "candidate": "MI355X", "memory": 0.6, "compute": 0.4259}}
    assert ("H200 -> MI300X (gfx942): a kernel bound by memory bandwidth should take 0.91x the time, one bound by FP32 "
            "0.41x") in report(dst, "text")
