"""The migration effort of `hipmigrate scan` (migrate/effort.py): exact numbers on a small project."""
import pytest

from migrate import api, effort
from migrate.options import Options
from tests.helpers import cli, cli_json, write_tree

KERNEL = """\
#include <cuda_runtime.h>

__global__ void compact(const int* in, int* out, int* count, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32;
    bool keep = i < n && in[i] > 0;
    unsigned mask = __ballot_sync(0xffffffff, keep);
    int before = __popc(mask & ((1u << lane) - 1));
    if (lane == 0)
        atomicAdd(count, __popc(mask));
    __syncwarp();
    if (keep)
        out[before] = in[i];
}
"""
HOST = """\
#include <cuda_runtime.h>
void copy(float* d, const float* h, size_t n) {
    cudaMemcpy(d, h, n, cudaMemcpyHostToDevice);
}
"""
CLEAN = "int twice(int x) { return 2 * x; }\n"


def project(tmp_path):
    return write_tree(tmp_path / "src", {"compact.cu": KERNEL, "host.cpp": HOST, "util.h": CLEAN, "NOTES.txt": "x\n"})


def test_changed_lines_counts_rewritten_added_and_removed_lines():
    assert effort.changed_lines(b"a\nb\nc\n", b"a\nb\nc\n") == 0
    assert effort.changed_lines(b"a\nb\nc\n", b"a\nB\nc\n") == 1
    assert effort.changed_lines(b"a\nb\n", b"#include\na\nb\n") == 1
    assert effort.changed_lines(b"a\nb\nc\n", b"a\nc\n") == 1
    assert effort.changed_lines(b"a\nb\nc\n", b"x\ny\n") == 3


@pytest.mark.parametrize(("weight", "changed", "lines", "expected"), [
    (0, 0, 100, "trivial"), (1, 0, 100, "small"), (5, 0, 100, "small"), (6, 0, 100, "moderate"),
    (20, 0, 100, "moderate"), (21, 0, 100, "large"), (60, 0, 100, "large"), (61, 0, 100, "very large"),
    (0, 9, 10, "trivial"),  # under MIN_CHANGED lines: trivial whatever the fraction
    (0, 10, 200, "trivial"), (0, 11, 200, "small"), (0, 40, 200, "small"), (0, 41, 200, "moderate"),
    (0, 1000, 1000, "moderate"),  # automatic changes alone stop at moderate
    (21, 41, 200, "large"),  # the larger of the two classes
])
def test_effort_class_thresholds(weight, changed, lines, expected):
    assert effort.effort_class(weight, changed, lines) == expected


def rows(e):
    return [(f.path, f.lines, f.lines_changed, f.hazards_fixed, f.hazards_to_review, f.review_weight, f.effort)
            for f in (*e.files, e.total)]


def test_estimate_default_policy(tmp_path):
    _, result = api.analyse(project(tmp_path), Options(hip_version="7.0"))
    # compact.cu: SAFE fixes applied: 0xffffffff, both __popc, 1u << lane (combined with the ballot), the mask's
    # type (every use of it is as a lane mask); to review: lane % 32 (warning 1), __syncwarp (warning 1).
    # Changed: the include and the lines of the mask and the two __popc.
    e = effort.estimate(result, unsafe_fixes=False)
    assert rows(e) == [
        ("compact.cu", 14, 4, 5, 2, 2, "small"),
        ("host.cpp", 4, 2, 0, 0, 0, "trivial"),
        ("util.h", 1, 0, 0, 0, 0, "trivial"),
        ("", 19, 6, 5, 2, 2, "small"),
    ]


def test_estimate_with_unsafe_fixes(tmp_path):
    _, result = api.analyse(project(tmp_path), Options(hip_version="7.0", unsafe_fixes=True))
    e = effort.estimate(result, unsafe_fixes=True)
    # lane % 32 and the mask's type are now fixed too; __syncwarp still needs a person.
    assert rows(e) == [
        ("compact.cu", 14, 5, 6, 1, 1, "small"),
        ("host.cpp", 4, 2, 0, 0, 0, "trivial"),
        ("util.h", 1, 0, 0, 0, 0, "trivial"),
        ("", 19, 7, 6, 1, 1, "small"),
    ]


def test_conflicting_fix_is_left_to_review():
    from migrate.model import (Applicability, Edit, EngineInfo, FileResult, FileStatus, Finding, Fix, MigrationResult,
                               Outcome, RuleKind, Severity, Span)

    fix = Fix("t", (Edit(0, 1, "x"),), Applicability.SAFE, Outcome.APPLIED)
    applied = Finding("HAZ002", RuleKind.HAZARD, Severity.WARNING, "m", Span("a.cu", 0, 1, 1, 1), fix)
    left_out = Fix("t", (Edit(0, 1, "x"),), Applicability.SAFE, Outcome.OVERLAPPED, "HAZ002")
    clashed = Finding("HAZ001", RuleKind.HAZARD, Severity.ERROR, "m", Span("a.cu", 0, 1, 1, 1), left_out)
    note = Finding("INP007", RuleKind.INPUT, Severity.WARNING, "HAZ001 fix not applied: it overlaps another fix here",
                   Span("a.cu", 0, 0, 1, 1))
    r = FileResult("a.cu", FileStatus.MIGRATED, (applied, clashed, note), b"a\n", b"x\n", 1)
    e = effort.estimate(MigrationResult("/src", None, EngineInfo("builtin", "0"), "7.0", (r,)))
    assert rows(e) == [("a.cu", 1, 1, 1, 1, 3, "small"), ("", 1, 1, 1, 1, 3, "small")]


def test_scan_prints_the_effort_table(tmp_path):
    result = cli("scan", project(tmp_path), "--hip-version", "7.0", "--no-progress")
    assert result.exit_code == 0  # the hazards left build: warnings, no blocker
    lines = result.stdout.splitlines()
    start = lines.index("migration effort (review weight: warning 1, error 3)")
    assert lines[start:] == [
        "migration effort (review weight: warning 1, error 3)",
        "┏━━━━━━━━━━━━┳━━━━━━━┳━━━━━━━━━┳━━━━━━━┳━━━━━━━━┳━━━━━━━━┳━━━━━━━━━┓",
        "┃ file       ┃ lines ┃ changed ┃ fixed ┃ review ┃ weight ┃ effort  ┃",
        "┡━━━━━━━━━━━━╇━━━━━━━╇━━━━━━━━━╇━━━━━━━╇━━━━━━━━╇━━━━━━━━╇━━━━━━━━━┩",
        "│ compact.cu │    14 │       4 │     5 │      2 │      2 │ small   │",
        "│ host.cpp   │     4 │       2 │     0 │      0 │      0 │ trivial │",
        "│ total      │    19 │       6 │     5 │      2 │      2 │ small   │",
        "└────────────┴───────┴─────────┴───────┴────────┴────────┴─────────┘",
        "effort: small (6 of 19 lines changed automatically, 5 hazards fixed, 2 to review)",
    ]


def test_scan_json_carries_the_effort(tmp_path):
    code, doc = cli_json("scan", project(tmp_path), "--hip-version", "7.0", "--unsafe-fixes")
    assert code == 0
    assert doc["effort"] == {
        "class": "small", "unsafe_fixes": True, "weights": {"warning": 1, "error": 3},
        "total": {"lines": 19, "lines_changed": 7, "changed_fraction": 0.3684, "hazards_fixed": 6,
                  "hazards_to_review": 1, "review_weight": 1, "class": "small"},
        "files": [
            {"path": "compact.cu", "lines": 14, "lines_changed": 5, "changed_fraction": 0.3571, "hazards_fixed": 6,
             "hazards_to_review": 1, "review_weight": 1, "class": "small"},
            {"path": "host.cpp", "lines": 4, "lines_changed": 2, "changed_fraction": 0.5, "hazards_fixed": 0,
             "hazards_to_review": 0, "review_weight": 0, "class": "trivial"},
            {"path": "util.h", "lines": 1, "lines_changed": 0, "changed_fraction": 0.0, "hazards_fixed": 0,
             "hazards_to_review": 0, "review_weight": 0, "class": "trivial"},
        ],
    }


def test_run_and_diff_json_have_no_effort(tmp_path):
    code, doc = cli_json("diff", project(tmp_path), "--hip-version", "7.0")
    assert code == 0 and "effort" not in doc and "inline_asm" not in doc


class _Overlapping:
    """Two hazard rules whose fixes rewrite the same `32`: the first is applied, the second left out."""

    feeds_other_rules = False

    def __init__(self, code: str, text: str):
        self.code, self.text = code, text

    def check(self, ctx):
        from migrate.model import Applicability, Edit, Finding, Fix, RuleKind, Severity

        start = ctx.data.index(b"32")
        yield Finding(self.code, RuleKind.HAZARD, Severity.WARNING, "literal 32 as the warp size",
                      ctx.span(start, start + 2), Fix("Use warpSize", (Edit(start, start + 2, self.text),),
                                                      Applicability.SAFE))


def test_an_overlapped_fix_is_to_review_in_the_effort_and_the_report_alike():
    """The report read the fix policy alone and called the overlapped fix fixed, while the effort parsed INP007's
    message and counted it to review; both now read the outcome the fixing step recorded."""
    from migrate.cpp.context import CppContext
    from migrate.fixing import run_rules
    from migrate.model import EngineInfo, FileResult, FileStatus, MigrationResult, Outcome
    from migrate.packs import default_packs
    from migrate.report import assemble

    data = b"__global__ void k(int* o) { o[0] = threadIdx.x % 32; }\n"
    ctx = CppContext("k.cu", data, Options(), default_packs(), "6.2")
    done = run_rules(ctx, [_Overlapping("HAZ001", "warpSize"), _Overlapping("HAZ901", "64")])
    assert done.data == data.replace(b"32", b"warpSize")
    outcomes = [(f.code, f.fix.outcome, f.fix.overlaps) for f in done.findings if f.fix is not None]
    assert outcomes == [("HAZ001", Outcome.APPLIED, ""), ("HAZ901", Outcome.OVERLAPPED, "HAZ001")]
    r = FileResult("k.cu", FileStatus.MIGRATED, done.findings, data, done.data, 1)
    m = assemble.migration(MigrationResult("/src", None, EngineInfo("builtin", "0"), "6.2", (r,)))
    assert [(s.finding.code, m.fixed(s)) for s in m.hazards] == [("HAZ001", True), ("HAZ901", False)]
    assert (m.effort_total.hazards_fixed, m.effort_total.hazards_to_review) == (1, 1)
