"""Results cross from worker processes as plain tuples: nothing is lost on the way."""
from pathlib import Path

from migrate import api, wire
from migrate.options import Options

SAMPLES = Path(__file__).resolve().parent.parent / "samples"


def test_every_sample_result_survives_the_round_trip():
    for src in sorted(SAMPLES.glob("*/src")):
        _, result = api.analyse(src, Options(hip_version="5.2"))
        for r in result.files:
            assert wire.unpack(wire.pack(r)) == r
    assert any(f.fix is not None for r in result.files for f in r.findings)


def test_worker_processes_give_the_same_findings_as_one_process():
    one = api.analyse(SAMPLES, Options(hip_version="5.2", jobs=1))[1]
    two = api.analyse(SAMPLES, Options(hip_version="5.2", jobs=2))[1]
    assert len(one.files) > 30 and sum(len(r.findings) for r in one.files) > 100
    assert one.files == two.files
