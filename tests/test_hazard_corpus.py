"""Precision and recall of the hazard rules over hand-written kernels (tests/hazard_kernels) and the samples.

clean/: correct wave-agnostic CUDA; no HAZ finding at all. planted/: one planted hazard each, the expected
(code, line) findings written on the first line (`// expect: HAZ003 12, HAZ001 14`); exactly those, so
recall is 100% and nothing else fires. The samples are CUDA-style on purpose: their hazards are listed here,
each one judged.
"""
import re
from pathlib import Path

import pytest

from migrate.cpp_engine import translate
from migrate.options import Options
from migrate.packs import default_packs
from migrate.registry import default_registry
from migrate.filekinds import CPP_SUFFIXES

ROOT = Path(__file__).resolve().parent.parent
KERNELS = ROOT / "tests" / "hazard_kernels"
CLEAN = sorted((KERNELS / "clean").glob("*.cu"))
PLANTED = sorted((KERNELS / "planted").glob("*.cu"))
EXPECT = re.compile(r"^// expect: (.*)$")
HIP = "7.0"  # the *_sync warp functions exist, so the mask rules apply


def hazards(path: Path, rel: str) -> list[tuple[str, int]]:
    packs = default_packs()
    rules = [r() for r in default_registry().cpp()]
    result = translate(rel, path.read_bytes(), Options(hip_version=HIP), packs, HIP, rules)
    return sorted((f.code, f.span.line) for f in result.findings if f.code.startswith("HAZ"))


def expected(path: Path) -> list[tuple[str, int]]:
    m = EXPECT.match(path.read_text().splitlines()[0])
    assert m, f"{path.name}: the first line must be '// expect: CODE LINE[, CODE LINE...]'"
    return sorted((code, int(line)) for code, line in (item.split() for item in m.group(1).split(",")))


@pytest.mark.parametrize("path", CLEAN, ids=lambda p: p.stem)
def test_clean_kernel_has_no_hazard(path):
    assert hazards(path, path.name) == []


@pytest.mark.parametrize("path", PLANTED, ids=lambda p: p.stem)
def test_planted_hazard_is_found_exactly(path):
    assert hazards(path, path.name) == expected(path)


def test_corpus_size_and_coverage():
    assert len(CLEAN) >= 40 and len(PLANTED) >= 40
    codes = {r.code for r in default_registry().rules if r.code.startswith("HAZ")}
    planted = {code for path in PLANTED for code, _ in expected(path)}
    assert planted == codes  # every hazard rule has a planted kernel, and nothing else is expected
    for path in PLANTED:  # one planted hazard each: a file expects a single code
        assert len({code for code, _ in expected(path)}) == 1, path.name


# Each sample's hazards, judged: the CUDA-style samples assume 32-lane warps on purpose.
SAMPLES = {
    "ballot_compaction/src/ballot_compaction.cu": [
        ("HAZ001", 39),  # lane = threadIdx.x & 31
        ("HAZ001", 40),  # warp = threadIdx.x / 32
        ("HAZ001", 61),  # numWarps = blockDim.x / 32: 8 instead of 4 wavefronts of a 256-thread block
        ("HAZ001", 64),  # scan loop bounded by offset < 32
        ("HAZ001", 71),  # lane == 31 as the last lane
        ("HAZ002", 51),  # __ballot_sync(0xffffffff, ...)
        ("HAZ002", 65),  # __shfl_up_sync(0xffffffff, ...)
        ("HAZ003", 51),  # unsigned mask = __ballot_sync(...)
        ("HAZ003", 52),  # __popc(mask & ...)
        ("HAZ003", 52),  # 1u << lane
        ("HAZ003", 54),  # __popc(mask)
    ],
    "block_reduce/src/block_reduce.cu": [
        ("HAZ001", 21),  # #define WARP_SIZE 32
        ("HAZ001", 27),  # for (offset = 16; ...) around __shfl_down_sync
        ("HAZ002", 23),  # #define FULL_MASK 0xffffffff, the mask of __shfl_down_sync
    ],
    "kernel_pressure/src/kernel_pressure.cu": [
        ("HAZ008", 145),  # 96 KiB of dynamic shared memory opted into: over gfx942's 64 KiB (PRF002 too)
    ],
}
SAMPLE_SOURCES = sorted(p.relative_to(ROOT / "samples").as_posix() for p in (ROOT / "samples").glob("*/src/**/*")
                        if p.is_file() and p.suffix.lower() in CPP_SUFFIXES)


@pytest.mark.parametrize("rel", SAMPLE_SOURCES)
def test_sample_hazards(rel):
    # A sample not listed must have no hazard; a new CUDA-style sample needs its hazards judged and listed here.
    assert hazards(ROOT / "samples" / rel, rel) == sorted(SAMPLES.get(rel, []))


def test_listed_samples_exist():
    assert set(SAMPLES) <= set(SAMPLE_SOURCES)
