"""A file's many findings kept packed (migrate/packed.py): read back equal, and a run whose every file's findings are
packed writes, reports and prints exactly what a run of plain tuples does."""
import pickle
import shutil
from pathlib import Path

import pytest

from migrate import packed
from migrate.model import FileStatus
from migrate.options import Options
from migrate.packed import Packed, compact
from migrate.stages import rewrite
from migrate.stages.scan import SourceFile
from tests.helpers import cli, read_tree

SAMPLES = Path(__file__).resolve().parent.parent / "samples"


def sample_findings():
    path = SAMPLES / "cudnn_conv" / "src" / "cudnn_conv.cu"
    r = rewrite._migrate_one(SourceFile("cudnn_conv.cu", path, "cpp"), Options(hip_version="6.4"), "6.4")
    assert r.status is FileStatus.MIGRATED and len(r.findings) > 20
    return tuple(r.findings)


def test_packed_findings_read_back_equal_by_index_slice_and_pickle(monkeypatch):
    monkeypatch.setattr(packed, "BLOCK", 4)  # several blocks and a part-filled last one
    found = sample_findings()
    p = Packed(found)
    assert len(p) == len(found) and len(p._blocks) == len(found) // 4 and len(p._rows) == len(found) % 4
    assert tuple(p) == found and p == found and found == p
    assert p[0] == found[0] and p[5] == found[5] and p[-1] == found[-1] and p[-len(found)] == found[0]
    assert p[3:9] == found[3:9] and p[::-2] == found[::-2]
    with pytest.raises(IndexError):
        p[len(found)]
    again = pickle.loads(pickle.dumps(p))
    assert isinstance(again, Packed) and again == found
    assert p != found[:-1] and p != found[::-1]
    assert repr(p) == f"Packed({len(found)} findings)"


def test_draining_a_packed_store_reads_every_finding_in_order_and_empties_it(monkeypatch):
    monkeypatch.setattr(packed, "BLOCK", 4)
    found = sample_findings()
    p = Packed(found)
    drained = p.drain()
    assert next(drained) == found[0] and len(p) == 0  # emptied as soon as it is read
    assert (found[0], *drained) == found
    assert tuple(p) == () and tuple(Packed().drain()) == ()


def test_compact_packs_only_above_the_limit_and_takes_a_generator_as_it_comes(monkeypatch):
    found = sample_findings()
    monkeypatch.setattr(packed, "PACK_ABOVE", len(found))
    assert type(compact(found)) is tuple and type(compact(iter(found))) is tuple
    monkeypatch.setattr(packed, "PACK_ABOVE", len(found) - 1)
    made = compact(f for f in found)
    assert type(made) is Packed and made == found
    assert type(compact(made)) is Packed
    monkeypatch.setattr(packed, "PACK_ABOVE", len(found))
    assert type(compact(made)) is tuple and compact(made) == found
    assert packed.joined([], found) == found and packed.joined([found[1]], found[:1]) == (found[1], found[0])


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_run_with_every_file_packed_writes_and_reports_what_a_plain_run_does(tmp_path, monkeypatch, jobs):
    src = tmp_path / "src"
    for name in ("cudnn_conv", "block_reduce", "pytorch_ddp", "ballot_compaction"):
        shutil.copytree(SAMPLES / name / "src", src / name)

    def run(out: str):
        done = cli("run", src, "--out", tmp_path / out, "--hip-version", "6.4", "--jobs", jobs)
        report = {fmt: cli("report", tmp_path / out, "--format", fmt).output for fmt in ("markdown", "json", "text")}
        return done.exit_code, done.output, read_tree(tmp_path / out), report

    plain = run("plain")
    monkeypatch.setattr(packed, "PACK_ABOVE", 0)
    monkeypatch.setattr(packed, "BLOCK", 3)
    calls = []
    real = packed.Packed.add
    monkeypatch.setattr(packed.Packed, "add", lambda self, f: calls.append(1) or real(self, f))
    kept = run("packed")
    assert len(calls) > 100 or jobs == "2"  # the workers' calls are not seen here
    assert kept[0] == plain[0] == 1  # findings to review
    assert kept[1].replace("packed", "plain") == plain[1]
    assert kept[2][".hipmigrate/run.json"] == plain[2][".hipmigrate/run.json"].replace(b"/plain", b"/packed")
    assert {k: v for k, v in kept[2].items() if k != ".hipmigrate/run.json"} == {
        k: v for k, v in plain[2].items() if k != ".hipmigrate/run.json"}
    assert {k: v.replace("packed", "plain") for k, v in kept[3].items()} == plain[3]
