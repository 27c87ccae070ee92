"""A report section put in listing order (migrate/report/listing.py): packed past PACK_ABOVE and merged from the runs
it came in, with the order, ties and fingerprints of a stable sort of the objects."""
import pytest

from migrate import packed
from migrate.model import RuleKind, Severity, Span, Finding
from migrate.report import listing
from migrate.report.listing import Gathered, order
from migrate.report.model import Listed, Stored


def stored(path: str, line: int, column: int, code: str, n: int) -> Stored:
    f = Finding(code, RuleKind.BUILD, Severity.WARNING, f"finding {n}", Span(path, n, n + 1, line, column))
    return Stored(f, f"print-{n}")  # a fingerprint of its own, as one read back from run.json has


def items(runs: int) -> list[Stored]:
    """Findings of two files in `runs` ascending runs each, with ties (same place and code) across runs."""
    out, n = [], 0
    for path in ("b.txt", "a.txt"):
        for r in range(runs):
            for line in range(r % 3, 40, 3):
                out.append(stored(path, line, 1 + line % 2, "BLD00" + str(r % 2), n))
                n += 1
    return out


@pytest.mark.parametrize("runs", [1, 4, 7])
def test_a_section_of_many_is_packed_and_in_the_order_of_a_stable_sort(runs, monkeypatch):
    monkeypatch.setattr(packed, "PACK_ABOVE", 10)
    monkeypatch.setattr(packed, "BLOCK", 4)
    found = items(runs)
    g = Gathered()
    for s in found:
        g.add(s)
    assert len(g.runs) == 2 * runs and len(g) == len(found)
    listed = g.listed()
    expected = tuple(sorted(found, key=order))
    assert isinstance(listed, Listed) and len(listed) == len(found)
    assert listed == expected and tuple(listed) == expected
    assert [s.fingerprint for s in listed] == [s.fingerprint for s in expected]
    assert listed[0] == expected[0] and listed[-1] == expected[-1] and listed[2:5] == expected[2:5]
    assert listed + () == expected and () + listed == expected and listed + listed == expected + expected
    assert repr(listed) == f"Listed({len(found)} findings)"


def test_few_findings_or_too_many_runs_are_a_sorted_tuple(monkeypatch):
    found = items(3)
    g = Gathered()
    for s in found:
        g.add(s)
    assert g.listed() == tuple(sorted(found, key=order)) and isinstance(g.listed(), tuple)
    monkeypatch.setattr(packed, "PACK_ABOVE", 10)
    monkeypatch.setattr(listing, "MERGED_RUNS", 5)
    g = Gathered()
    for s in found:
        g.add(s)
    assert len(g.runs) == 6
    assert g.listed() == tuple(sorted(found, key=order)) and isinstance(g.listed(), tuple)
    assert Gathered().listed() == ()
