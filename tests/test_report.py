"""`hipmigrate report`: what `run`, `build` and `bench` leave in DST/.hipmigrate/, the report read back from it,
and one snapshot per output format (text, md, json, sarif here; html in test_report_html.py) of a small fixed
project. `pytest --update-golden` rewrites the snapshots under tests/snapshots/report/."""
from __future__ import annotations

import json
import re
import shutil
from dataclasses import replace
from pathlib import Path

import jsonschema
import pytest

from migrate import api
from migrate.model import BuildResult, Finding, RuleKind, Severity, Span, UnitResult
from migrate.render import markdown
from migrate.report import load
from migrate.report.model import FileDiff
from tests.helpers import cli, write_tree

ROOT = Path(__file__).resolve().parent.parent
SNAPSHOTS = Path(__file__).resolve().parent / "snapshots" / "report"
BENCH = (ROOT / "samples" / "bench" / "h200-run1.json", ROOT / "samples" / "bench" / "h200-run2.json")
SCHEMA = ROOT / "docs" / "report.schema.json"

LANES = """#include <cuda_runtime.h>
#include <cstdio>

// Counts the lanes below 16 of each warp.
__global__ void lanes(int *out) {
    int lane = threadIdx.x % 32;
    unsigned mask = __ballot_sync(0xffffffff, lane < 16);
    out[threadIdx.x] = __popc(mask) + lane;
}

int main() {
    int *d = nullptr;
    cudaMalloc(&d, 64 * sizeof(int));
    lanes<<<1, 64>>>(d);
    cudaDeviceSynchronize();
    cudaProfilerInitialize("cfg", "out", cudaKeyValuePair);
    cudaFree(d);
    printf("done\\n");
    return 0;
}
"""
PROJECT = {"lanes.cu": LANES, "Makefile": "lanes: lanes.cu\n\tnvcc -O2 -arch=sm_90 -o lanes lanes.cu\n",
           "README.md": "A small CUDA program.\n"}
TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00")


def migrate(tmp: Path) -> Path:
    """The fixed project migrated by `run` for HIP 6.2 (exit 1: it has unsupported names and hazard errors)."""
    src = write_tree(tmp / "src", PROJECT)
    out = tmp / "dst"
    result = cli("run", src, "--out", out, "--hip-version", "6.2")
    assert result.exit_code == 1, result.output
    return out


def fake_build(out: Path) -> None:
    """A build record as `hipmigrate build` writes it: lanes.cu fails for both targets on the unsupported call."""
    def diag(code: str, level: Severity, target: str, message: str, line: int, column: int) -> Finding:
        title = "CUDA API without a HIP counterpart" if code == "BLD902" else "compiler warning"
        return Finding(code, RuleKind.BUILD, level, f"{title} ({target}): {message}", Span("lanes.cu", 0, 0, line, column),
                       matched=message)

    units = tuple(UnitResult("lanes.cu", t, "failed", s, (
        diag("BLD902", Severity.ERROR, t, "use of undeclared identifier 'cudaProfilerInitialize'", 16, 5),
        diag("BLD907", Severity.WARNING, t, "unused variable 'mask'", 7, 14)), ("hipcc", "-x", "hip"))
                  for t, s in (("gfx90a", 1.25), ("gfx940", 1.5)))
    result = BuildResult(str(out), None, ("gfx90a", "gfx940"), "/usr/bin/hipcc", "5.2.21153-0", units, ("host.cpp",))
    api.write_build_state(out, result)


@pytest.fixture(scope="module")
def dst(tmp_path_factory) -> Path:
    out = migrate(tmp_path_factory.mktemp("report"))
    fake_build(out)
    (out / ".hipmigrate" / "bench").mkdir()
    shutil.copy(BENCH[1], out / ".hipmigrate" / "bench" / "20261129T221300Z.json")
    return out


def normalise(text: str, dst: Path) -> str:
    return TIME.sub("<TIME>", text.replace(str(dst.parent), "<TMP>").replace(str(ROOT), "<ROOT>"))


def report(dst: Path, fmt: str, *extra: str) -> str:
    result = cli("report", dst, "--output-format", fmt, "--bench", *BENCH, *extra)
    assert result.exit_code == 0, result.output
    return normalise(result.stdout, dst)


def check_snapshot(name: str, text: str, update: bool) -> None:
    path = SNAPSHOTS / name
    if update:
        path.write_text(text, encoding="utf-8")
    assert path.is_file(), f"no snapshot {path}: run pytest --update-golden"
    assert text == path.read_text(encoding="utf-8"), f"{name} differs from its snapshot (pytest --update-golden)"


def test_run_leaves_what_the_report_needs(dst):
    """run.json is the report model's own state (format hipmigrate-state, version 2), not a renderer's output."""
    doc = json.loads((dst / ".hipmigrate" / "run.json").read_text())
    assert (doc["format"], doc["version"], doc["part"]) == ("hipmigrate-state", 2, "migration")
    assert sorted({f["family"] for f in doc["findings"] if f["code"].startswith("MAP")}) == ["device", "runtime"]
    assert doc["effort"]["total"] == {"path": "", "lines": 22, "lines_changed": 7, "hazards_fixed": 2,
                                      "hazards_to_review": 1, "review_weight": 1, "effort": "small"}
    assert [d[0] for d in doc["diffs"]] == ["Makefile", "lanes.cu"]
    assert "-#include <cuda_runtime.h>\n+#include <hip/hip_runtime.h>\n" in doc["diffs"][1][1]
    malloc = next(f for f in doc["findings"] if f["message"].startswith("cudaMalloc"))
    assert (malloc["start"], malloc["end"]) == (LANES.index("cudaMalloc"), LANES.index("cudaMalloc") + 10)
    assert malloc["fix"]["outcome"] == "applied"


def test_report_joins_migration_build_and_bench(dst):
    r = load.load(dst)
    m = r.migration
    assert (len(m.files), m.count("migrated"), m.lines, m.conversions_total) == (3, 2, 22, 4)
    assert [s.finding.code for s in m.unsupported] == ["CPP006", "CPP006"]
    assert [(s.finding.code, m.fixed(s)) for s in m.hazards] == [("HAZ001", False), ("HAZ003", True),
                                                                ("HAZ003", True)]
    assert m.effort_class == "small" and m.effort_total.hazards_fixed == 2
    assert [(t.target, t.compiles, t.failed) for t in r.build.by_target] == [("gfx90a", 1, 1), ("gfx940", 1, 1)]
    assert [s.finding.code for s in r.build.findings] == ["BLD902", "BLD907"] * 2
    assert [(b.name, b.summary.n) for b in r.bench_runs[0].benchmarks][:2] == [("saxpy_streams", 10),
                                                                               ("block_reduce", 10)]
    assert r.comparison is None and r.problems == ()


@pytest.mark.parametrize("fmt,name", [("text", "report.txt"), ("md", "report.md"), ("json", "report.json"),
                                      ("sarif", "report.sarif")])
def test_snapshot(dst, fmt, name, update_golden):
    check_snapshot(name, report(dst, fmt), update_golden)


def test_json_follows_its_schema(dst, tmp_path):
    schema = json.loads(SCHEMA.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())
    full = json.loads(cli("report", dst, "--output-format", "json", "--bench", *BENCH).stdout)
    validator.validate(full)
    assert full["format"] == "hipmigrate-report" and full["version"] == 1
    assert full["comparison"]["regressions"] == 0 and len(full["comparison"]["benchmarks"]) == 6
    bare = migrate(tmp_path)  # no build, no bench: those sections are null or empty
    doc = json.loads(cli("report", bare, "--output-format", "json").stdout)
    validator.validate(doc)
    assert doc["build"] is None and doc["comparison"] is None and doc["bench_runs"] == []
    doc["migration"]["summary"]["files"] = -1
    with pytest.raises(jsonschema.ValidationError):
        validator.validate(doc)


def test_sarif_is_read_by_sarif_tools(dst, tmp_path):
    from sarif import loader

    path = tmp_path / "report.sarif"
    assert cli("report", dst, "--output-format", "sarif", "-o", path).exit_code == 0
    log = loader.load_sarif_file(str(path))
    # 2 unsupported + 3 hazards + 4 compiler diagnostics (2 per target); the 4 conversions are not results
    assert log.get_result_count() == 9
    assert log.get_distinct_tool_names() == ["hipmigrate"]
    records = log.get_records()
    assert sorted((r["Code"], r["Line"]) for r in records) == [
        ("BLD902", 16), ("BLD902", 16), ("BLD907", 7), ("BLD907", 7), ("CPP006", 16), ("CPP006", 16),
        ("HAZ001", 6), ("HAZ003", 7), ("HAZ003", 8)]
    rules = log.runs[0].run_data["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == ["CPP006", "HAZ001", "HAZ003", "BLD902", "BLD907"]
    for code in ("CPP006", "HAZ001", "HAZ003", "BLD902", "BLD907"):
        (rule,) = log.get_rules_by_id(code)
        assert rule["help"]["text"] and rule["shortDescription"]["text"] and rule["fullDescription"]["text"]
    assert "hipcc reported it" in log.get_rules_by_id("BLD902")[0]["help"]["text"]


def test_output_file_and_exit_status(dst, tmp_path):
    out = tmp_path / "deep" / "report.md"
    result = cli("report", dst, "--output-format", "md", "-o", out)
    assert result.exit_code == 0 and result.stdout == "" and f"report: {out}" in result.stderr
    assert out.read_text().startswith("## hipmigrate report\n")
    assert cli("report", tmp_path / "nothing").exit_code == 2
    (tmp_path / "empty" / ".hipmigrate").mkdir(parents=True)
    result = cli("report", tmp_path / "empty")
    assert result.exit_code == 2 and "holds no run.json, build.json or bench/*.json" in result.stderr
    result = cli("report", dst, "--bench", BENCH[0], tmp_path / "missing.json")
    assert result.exit_code == 2 and "missing.json: cannot be read" in result.stderr


def test_unreadable_state_is_named_and_the_rest_reported(dst, tmp_path):
    copy = tmp_path / "dst"
    shutil.copytree(dst, copy)
    (copy / ".hipmigrate" / "build.json").write_text("{not json")
    (copy / ".hipmigrate" / "bench" / "bad.json").write_text('{"format": "other"}')
    r = load.load(copy)
    assert r.build is None and r.migration is not None and len(r.bench_runs) == 1
    assert [p.split(":")[0] for p in r.problems] == [".hipmigrate/build.json", ".hipmigrate/bench/bad.json"]
    result = cli("report", copy, "--output-format", "text")
    assert result.exit_code == 2 and "cannot read .hipmigrate/build.json" in result.stdout  # the rest is reported
    assert result.stderr.splitlines() == [f"hipmigrate: error: {p}" for p in r.problems]
    assert result.stderr.startswith("hipmigrate: error: .hipmigrate/build.json: cannot be read: Expecting property "
                                    "name enclosed in double quotes")


def test_state_of_an_older_hipmigrate_is_named_with_what_to_run(dst, tmp_path):
    copy = tmp_path / "dst"
    shutil.copytree(dst, copy)
    (copy / ".hipmigrate" / "run.json").write_text('{"schema": 1, "command": "run", "summary": {}}')
    r = load.load(copy)
    assert r.migration is None and r.build is not None
    assert r.problems == (".hipmigrate/run.json: written by an older hipmigrate (schema 1), not the migration record "
                          "of version 2 that this hipmigrate reads; run `hipmigrate run` again to write it",)


def test_markdown_fits_a_pull_request_comment(dst):
    r = load.load(dst)
    m = r.migration
    many = replace(m, hazards=m.hazards * 400, diffs=tuple(FileDiff(f"f{i}.cu", m.diffs[1].text) for i in range(300)))
    text = markdown.render(replace(r, migration=many), api.codes())
    assert len(text) < markdown.GITHUB_LIMIT
    assert "more rows left out to fit a comment" in text and "more diffs left out to fit a comment" in text
    assert "left out to stay under GitHub's 65,536-character limit" in text
    assert text.count("<details>") == text.count("</details>")
    small = markdown.render(r, api.codes())
    assert "left out" not in small, small[small.find("left out") - 200:]
    assert small.count("<details>") == 7


def test_real_build_is_reported(tmp_path, hipcc):
    src = write_tree(tmp_path / "src", PROJECT)
    out = tmp_path / "dst"
    assert cli("run", src, "--out", out, "--hip-version", "5.2", "--build", "--offload-arch", "gfx90a").exit_code == 1
    doc = json.loads(cli("report", out, "--output-format", "json").stdout)
    assert doc["build"]["summary"] == {"compiles": 1, "ok": 0, "failed": 1, "units": 1, "skipped": 0, "errors": 1,
                                       "warnings": doc["build"]["summary"]["warnings"]}
    assert [(f["path"], f["line"], f["code"]) for f in doc["build"]["findings"] if f["severity"] == "error"] == [
        ("lanes.cu", 16, "BLD902")]
    assert doc["migration"]["summary"]["hazards"] == 3


def test_the_state_is_written_piece_by_piece_with_json_dumps_bytes():
    """run.json's findings and diffs are written one at a time (a huge file's took 20 times its size as dicts and
    one string); the bytes are json.dumps's all the same."""
    import json

    from migrate.report.state import chunks, encode

    items = [{"code": "MAP001", "line": i} for i in range(2500)]
    doc = {"format": "hipmigrate-state", "findings": iter(items), "empty": iter([]), "diffs": iter([["a", "b"]])}
    pieces = list(chunks(doc))
    assert len(pieces) > 3
    assert b"".join(pieces) == (json.dumps({**doc, "findings": items, "empty": [], "diffs": [["a", "b"]]})
                                + "\n").encode()
    assert encode({}) == b"{}\n"


def test_a_diff_is_written_to_the_state_in_pieces_as_json_dumps_writes_it_whole():
    """A huge file's unified diff is never held whole: its pieces are escaped one by one (quotes, backslashes,
    control characters, non-ASCII and surrogate escapes of undecodable bytes), and the bytes are json.dumps's."""
    import json

    from migrate.report.state import Text, chunks

    pieces = ['-a "q" \\ b\n', "+caf\u00e9 \U0001f600\t\n", " \udce9 end\x01\n"]
    items = [["one.cu", "plain"], ["two.cu", Text(iter(pieces))], ["three.cu", Text(iter([]))], ["four.cu", "x"]]
    doc = {"diffs": iter(items), "suppressed": 0}
    whole = [[path, "".join(text.pieces) if isinstance(text, Text) else text] for path, text in
             [["one.cu", "plain"], ["two.cu", Text(pieces)], ["three.cu", Text([])], ["four.cu", "x"]]]
    assert b"".join(chunks(doc)) == (json.dumps({"diffs": whole, "suppressed": 0}) + "\n").encode()
    alone = {"diffs": iter([["two.cu", Text(iter(pieces))]])}
    assert b"".join(chunks(alone)) == (json.dumps({"diffs": [["two.cu", "".join(pieces)]]}) + "\n").encode()
