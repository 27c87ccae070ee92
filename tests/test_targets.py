"""The AMD targets of rules/data/amd_targets.toml: the newest ones with the release that adds each, and the check
of --offload-arch values."""
from __future__ import annotations

import pytest

from migrate import targets
from migrate.errors import UsageError
from migrate.packs import version_tuple


def test_the_newest_targets_carry_the_release_that_adds_them():
    known = targets.known()
    assert known["gfx950"] == targets.Target("gfx950", "CDNA4 (Instinct MI350X, MI355X)", 64, "7.0", image=False)
    assert known["gfx1201"] == targets.Target("gfx1201", "RDNA4 (Radeon RX 9070/9070 XT, AI PRO R9700)", 32, "6.4")
    assert known["gfx1250"] == targets.Target("gfx1250", "GFX12.5 (no product named yet)", 32, "7.2", image=False)
    assert {name: t.since for name, t in known.items() if t.since} == {"gfx950": "7.0", "gfx1201": "6.4",
                                                                       "gfx1250": "7.2"}
    assert all(version_tuple(t.since) for t in known.values() if t.since)


def test_the_targets_without_textures():
    """HIP declares its texture and surface functions unavailable for these (rule HAZ029; checked with hipcc 7.2)."""
    assert [name for name, t in targets.known().items() if not t.image] == ["gfx940", "gfx941", "gfx942", "gfx950",
                                                                          "gfx1250"]
    assert targets.without_images(["gfx90a", "gfx942:xnack+", "gfx1201"]) == ["gfx942:xnack+"]


def test_what_to_install_for_a_target():
    assert targets.needs("gfx1250") == "ROCm 7.2 or later, whose clang supports gfx1250"
    assert targets.needs("gfx950:xnack+") == "ROCm 7.0 or later, whose clang supports gfx950"
    assert targets.needs("gfx942") == "a HIP/ROCm whose clang supports gfx942"
    assert targets.needs("gfx9999") == "a HIP/ROCm whose clang supports gfx9999"


def test_the_new_targets_are_accepted_and_a_typo_is_not():
    assert targets.check(("gfx950", "gfx950:sramecc+", "gfx1201", "gfx1250")) == (
        "gfx950", "gfx950:sramecc+", "gfx1201", "gfx1250")
    with pytest.raises(UsageError, match=r"--offload-arch 'gfx125': not an AMD GPU target; known targets: .*"
                                         r"gfx1200, gfx1201, gfx1250 \("):
        targets.check(("gfx125",))
