"""The probe of the packs against the installed HIP toolchains (scripts/probe_packs.py, scripts/packgen/probe.py and
declared.py): what a compile says is declared, how the packs follow it, and that the shipped packs agree with the
shipped rules/data/declared.toml."""
import sys
from pathlib import Path

import pytest

from migrate.packs import default_packs, rules_root, version_tuple

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from packgen.declared import Declared, apply_declared, counted_releases, load_declared  # noqa: E402
from packgen.probe import probe  # noqa: E402
from probe_packs import compilers  # noqa: E402

DECLARED = rules_root() / "data" / "declared.toml"


@pytest.mark.hipcc
@pytest.mark.parametrize("compiler", compilers([]), ids=lambda c: c.release)
def test_the_probe_tells_declared_from_missing(compiler):
    """hipblasComputeType_t and HIPBLAS_COMPUTE_32F came with hipBLAS 2 (HIP 6.x, still in 7.2): HIP 5.2's headers
    lack them; a namespace, a macro and an overloaded function are declared; hiprtc.h's names are found through another
    family's header; HIPCUB_STDERR is a switch the headers only test."""
    families = {
        "cublas": ({"hipblasComputeType_t": "name", "HIPBLAS_COMPUTE_32F": "name", "hipblasSgemm": "name",
                    "HIPBLAS_H": "name", "hipblasNoSuchName": "name"}, ["hipblas/hipblas.h"]),
        "cub": ({"hipcub": "namespace", "HIPCUB_STDERR": "name"}, ["hipcub/hipcub.hpp"]),
        "driver": ({"hipModuleLaunchKernel": "name", "hiprtcLinkCreate": "name"}, ["hip/hip_runtime_api.h"]),
        "rtc": ({"hiprtcCompileProgram": "name"}, ["hip/hiprtc.h"]),
        "device": ({"__shfl_down": "name", "__syncthreads": "name"}, ["hip/hip_runtime.h"]),
    }
    got = probe(compiler, families)
    new = compiler.release in ("6.4", "7.2")
    assert ("hipblasComputeType_t" in got["cublas"].declared) == new
    assert ("HIPBLAS_COMPUTE_32F" in got["cublas"].declared) == new
    assert {"hipblasSgemm", "HIPBLAS_H"} <= got["cublas"].declared and "hipblasNoSuchName" in got["cublas"].missing
    assert "hipcub" in got["cub"].declared and "HIPCUB_STDERR" in got["cub"].switches
    assert {"__shfl_down", "__syncthreads"} <= got["device"].declared
    assert "hipModuleLaunchKernel" in got["driver"].declared
    if new:  # HIP 6.4's and 7.2's hiprtc.h declare the linker; the driver API's header does not
        assert "hiprtcLinkCreate" in got["driver"].elsewhere
    assert not any(r.headers_missing for r in got.values())


def test_declared_rows_follow_the_probe():
    """A release whose headers declare a name lowers a `since` the engine would call newer; one that lacks a name
    the engine would write raises it; a name no probed release declares becomes unsupported; a name an older
    release has and a newer lacks is left, and reported."""
    packs = {"lib": {"names": {
        "cuA": {"hip": "hipA", "kind": "function", "since": "6.4"},   # declared by 5.2: lowered
        "cuB": {"hip": "hipB", "kind": "function", "since": "5.2"},   # missing in 5.2: raised to 6.4
        "cuC": {"hip": "hipC", "kind": "function", "since": "5.3"},   # declared by neither: unsupported
        "cuD": {"hip": "hipD", "kind": "macro", "since": "5.3"},      # removed in 6.4: left
        "cuE": {"hip": "hipE", "kind": "type", "since": "6.4"},       # only 6.4: as it is
    }, "unsupported": {}, "headers": {"lib.h": {"hip": "hiplib/hiplib.h"}}}}
    fams = {"declared": [], "elsewhere": [], "switches": [], "missing": [], "headers_missing": []}
    old = dict(fams, declared=["hipA", "hipD"], missing=["hipB", "hipC", "hipE"])
    new = dict(fams, declared=["hipA", "hipB", "hipE"], missing=["hipC", "hipD"])
    for data in (old, new):
        for key in ("declared", "elsewhere", "switches", "missing"):
            data[f"_{key}"] = frozenset(data[key])
    declared = Declared({"5.2": {"families": {"lib": old}}, "6.4": {"families": {"lib": new}}})
    sources, inspected = {"names": {}, "unsupported": {}}, {"lib": ["5.3", "6.4"]}
    done = apply_declared(packs, sources, declared, inspected)
    names = packs["lib"]["names"]
    assert inspected["lib"] == ["5.2", "5.3", "6.4"]
    assert names["cuA"]["since"] == "5.2" and names["cuB"]["since"] == "6.4" and names["cuE"]["since"] == "6.4"
    assert "cuC" not in names and packs["lib"]["unsupported"]["cuC"] == {"kind": "function"}
    assert sources["unsupported"]["cuC"] == "probe: HIP 5.2, 6.4 declare no hipC"
    assert names["cuD"]["since"] == "5.3" and len(done.removed) == 1 and "cuD" in done.removed[0]
    # a release without the family's header says nothing about the names missing there
    new["headers_missing"] = ["hiplib/hiplib.h"]
    assert counted_releases(declared, "lib", {"lib.h": {"hip": "hiplib/hiplib.h"}}) == ["5.2"]


def test_a_suffix_the_library_dropped_becomes_older_and_keeps_its_since():
    """[cublas.renamed] (hipBLAS 3.0 dropped `_v2`): a generated `_v2` row gets the plain name from `since` and the
    `_v2` one as `older`; the probe keeps that `since` although older releases declare the plain name (with other
    argument types), since `older` is declared below it and missing from it on."""
    from packgen.rows import _apply_renamed

    names = {"cuX": {"hip": "hipX_v2", "kind": "function", "since": "6.4"},
             "cuY": {"hip": "hipY", "kind": "function", "since": "5.2"},
             "cuZ": {"hip": "hipZ_v2", "kind": "function", "since": "6.4"}}
    sources, notes = {"names": {"cuZ": "overrides.toml"}}, []
    assert _apply_renamed(names, sources, {"renamed": {"suffix": "_v2", "since": "7.0"}}, notes) == 1
    assert names["cuX"] == {"hip": "hipX", "kind": "function", "since": "7.0", "older": "hipX_v2", "older_since": "6.4"}
    assert names["cuY"]["hip"] == "hipY" and names["cuZ"]["hip"] == "hipZ_v2"  # a hand-written row stays
    assert notes == ["renamed: 1 rows whose HIP name ends with _v2: the plain name from 7.0, the _v2 one before"]
    fams = {"elsewhere": [], "switches": [], "headers_missing": []}
    releases = {"5.2": dict(fams, declared=["hipX"], missing=["hipX_v2"]),
                "6.4": dict(fams, declared=["hipX", "hipX_v2"], missing=[]),
                "7.2": dict(fams, declared=["hipX"], missing=["hipX_v2"])}
    for data in releases.values():
        for key in ("declared", "elsewhere", "switches", "missing"):
            data[f"_{key}"] = frozenset(data[key])
    packs = {"lib": {"names": {"cuX": dict(names["cuX"])}, "unsupported": {}, "headers": {}}}
    declared = Declared({r: {"families": {"lib": data}} for r, data in releases.items()})
    done = apply_declared(packs, {"names": {}, "unsupported": {}}, declared, {"lib": ["5.2"]})
    assert packs["lib"]["names"]["cuX"]["since"] == "7.0" and done.lowered == [] and done.removed == []


@pytest.mark.skipif(not DECLARED.is_file(), reason="no rules/data/declared.toml")
def test_a_name_written_for_a_probed_release_is_declared_there():
    """The shipped packs agree with the shipped probe: for every release the probe counts for a family, a name the
    engine writes for it without a word (not newer than the target) is declared by its headers, and a name its
    headers declare is not called newer (names removed in a later release and switches aside)."""
    declared, packs = load_declared(DECLARED), default_packs()
    headers = {}
    for h in packs.headers.values():
        headers.setdefault(h.family, {})[h.cuda] = {"hip": h.hip, **({"since": h.since} if h.since else {})}
    wrong = []
    for m in packs.names.values():
        for release in counted_releases(declared, m.family, headers.get(m.family, {})):
            state = declared.state(release, m.family, m.hip)
            if state is None:
                continue
            written = not m.newer_than(version_tuple(release))
            later = [r for r in declared.releases if version_tuple(r) > version_tuple(release)]
            removed = state != "missing" and any(declared.state(r, m.family, m.hip) == "missing" for r in later)
            if written and state == "missing" or not written and state != "missing" and not removed and not m.older:
                wrong.append(f"{m.cuda} -> {m.hip} (since {m.since}) at HIP {release}: {state}")
    assert wrong == [], wrong[:20]
    # the case: hipblasComputeType_t is no HIP 5.2 name, and the packs say so
    compute = packs.names["cublasComputeType_t"]
    assert compute.newer_than((5, 2)) and not compute.newer_than((6, 4))
    assert declared.state("5.2", "cublas", "hipblasComputeType_t") == "missing"
