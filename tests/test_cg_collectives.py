"""Cooperative groups' reduce and scans (CPP023): the migrated kernel compiles with HIP 6.4 for wave64 (gfx942,
gfx950) and wave32 (gfx1100, gfx1201) targets, and with HIP 5.2 for gfx90a."""
from pathlib import Path

import pytest

from migrate import api, toolchain
from migrate.options import Options

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "cg"


@pytest.mark.parametrize("version, fixture, targets", [
    ("6.4", "hipcc64", ("gfx942", "gfx950", "gfx1100", "gfx1201")),
    ("5.2", "hipcc", ("gfx90a",)),
])
@pytest.mark.hipcc
def test_collectives_compile_for_wave64_and_wave32(tmp_path, request, version, fixture, targets):
    request.getfixturevalue(fixture)
    out = tmp_path / "hip"
    result = api.run(FIXTURE, out, Options(hip_version=version))
    assert sorted(f.code for f in result.findings if f.code == "CPP023") == ["CPP023"] * 16  # 2 includes, 16 qualified names, 2 pairs of them one finding (same line, same message)
    text = (out / "collectives.cu").read_text()
    assert "#include <cooperative_groups/reduce.h>" not in text and "#include <cooperative_groups/scan.h>" not in text
    assert text.count("namespace hipmigrate_cg {") == 1 and " cg::reduce" not in text
    built = api.build(out, targets, jobs=2, hip_version=version)
    assert [(u.target, u.status) for u in built.units] == [(t, "ok") for t in targets], \
        [f.message for u in built.units for f in u.findings]
    assert toolchain.choose(version).short_version == version
