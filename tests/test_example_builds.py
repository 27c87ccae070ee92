"""Every C++ rule example that is a complete translation unit builds for AMD with both toolchains.

An example is a complete translation unit when nvcc compiles its CUDA code as it stands (for sm_90). Its migration
for HIP 5.2 must then compile with Debian's HIP 5.2 for gfx90a, and its migration for HIP 6.4 with HIP 6.4 (clang 21)
for gfx942, gfx950 and gfx1100, each with the whole engine (every C++ rule and the packs, as `hipmigrate run`
migrates) and the example's own options. The examples are compiled in batches of the same includes, each in a
namespace of its own, with the verdict each gets alone (tests/batches.py says how), on every core at once. The
examples whose migration cannot build are listed below with the reason, and each of them must also get a warning or
an error from the migration that says so: nothing fails silently.
"""
from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
import pytest

from migrate import toolchain
from migrate.cpp_engine import translate
from migrate.model import Severity
from migrate.packs import default_packs
from migrate.registry import default_registry
from migrate.testing import example_id, example_options
from tests import batches
from tests.conftest import need_tool

# one worker resolves the module's examples once (`outcomes`), with a pool of its own
pytestmark = pytest.mark.xdist_group("example-builds")

REGISTRY = default_registry()
RULES = REGISTRY.cpp()
CUDA_INCLUDE = toolchain.TOOLCHAIN / "cuda" / "include"
TARGETS_64 = ("gfx942", "gfx950", "gfx1100")

# MIOpen is not in Debian 12 (the HIP 5.2 toolchain here); the cuDNN rules warn for a target before 6.4 (CPP033)
MIOPEN_52 = "miopen/miopen.h: Debian 12 packages no MIOpen for its HIP 5.2 (this machine's limit)"

# rocWMMA is in neither root's packages (HIP 7.2's librocwmma-dev lacks the internal/ headers it includes); CPP052's
# first example compiles for gfx942 with HIP 6.4 against rocWMMA 1.6's own headers (docs/build.md)
ROCWMMA = "rocwmma/rocwmma.hpp: no rocWMMA package for this release here (this machine's limit)"

# HIP 6.4's rocPRIM (Debian sid's, under hipCUB) does not compile for gfx950, one of the 6.4 targets here: its
# atomic.hpp stops with "support for 128-bit atomics not implemented for current architecture" on an include alone
ROCPRIM_64 = "hipcub/hipcub.hpp: HIP 6.4's rocPRIM does not compile for gfx950 (128-bit atomics; the toolchain's limit)"
HIPCUB_EXAMPLES = ("CPP062-invalid-0", "CPP062-invalid-1", "CPP062-valid-2", "CPP062-invalid-3", "CPP076-invalid-0")

# example id -> {release: why its migration does not build there}
UNBUILT = {
    **{name: {"6.4": ROCPRIM_64} for name in HIPCUB_EXAMPLES},
    "CPP001-invalid-5": {"5.2": "roctx.h: Debian 12 packages no roctracer for its HIP 5.2 (this machine's limit)"},
    "CPP001-invalid-10": {"5.2": "the file uses CUDART_ constants, and hip/hip_math_constants.h came with HIP 5.7"},
    "CPP006-invalid-0": {"5.2": "cudaDeviceFlushGPUDirectRDMAWrites has no HIP counterpart",
                         "6.4": "cudaDeviceFlushGPUDirectRDMAWrites has no HIP counterpart"},
    "CPP049-valid-4": {"5.2": "cudaDeviceFlushGPUDirectRDMAWrites has no HIP counterpart",
                       "6.4": "cudaDeviceFlushGPUDirectRDMAWrites has no HIP counterpart"},
    **{f"CPP067-invalid-{i}": {release: "hipLimit_t holds CUDA's value for cudaLimitPersistingL2CacheSize from HIP "
                               "7.0: CPP067 reports the limit, unfixed" + (" (the example's point)" if i == 4 else "")
                               for release in ("5.2", "6.4")} for i in (0, 2, 3, 4)},
    "CPP049-valid-6": {"5.2": "a class member that uses cudaGraphConditionalHandle, which HIP lacks (members are not guarded)",
                       "6.4": "a class member that uses cudaGraphConditionalHandle, which HIP lacks (members are not guarded)"},
    "CPP049-valid-7": {"5.2": "main uses cudaGraphConditionalHandle, which HIP lacks (main is never guarded)",
                       "6.4": "main uses cudaGraphConditionalHandle, which HIP lacks (main is never guarded)"},
    "CPP045-invalid-0": {"5.2": "two definitions become one after renaming, both always compiled: the guard is unsafe",
                         "6.4": "two definitions become one after renaming, both always compiled: the guard is unsafe"},
    "CPP047-invalid-5": {"5.2": "umax of a braced list: reported, left for a hand edit",
                         "6.4": "umax of a braced list: reported, left for a hand edit"},
    **{f"CPP054-invalid-{i}": {"5.2": "CUDA 13's memory-location call: hipMemPrefetchAsync_v2 first in HIP 7.2",
                               "6.4": "CUDA 13's memory-location call: hipMemPrefetchAsync_v2 first in HIP 7.2"}
       for i in range(4)},
    "CPP055-invalid-0": {"5.2": "hipBLAS's compute types (HIPBLAS_COMPUTE_32F) are newer than HIP 5.2"},
    "CPP064-invalid-0": {"5.2": "hipSOLVER's hipsolverDnParams_t came with HIP 6.4: CPP064 reports the call, unfixed"},
    "CPP064-invalid-1": {"5.2": "hipSOLVER's hipsolverDnParams_t came with HIP 6.4: CPP064 reports the call, unfixed "
                                "(the example's point)"},
    "CPP064-invalid-2": {"5.2": "hipSOLVER's hipsolverDnParams_t came with HIP 6.4: CPP064 reports the call, unfixed"},
    **{f"CPP065-invalid-{i}": {release: "the block passes hipComplex and hipDataType, which hipBLAS takes without "
                               "HIPBLAS_V2 from HIP 7.0: CPP065 reports the call, unfixed"
                               + (" (the example's point)" if i == 2 else "") for release in ("5.2", "6.4")}
       for i in range(3)},
    "CPP058-invalid-0": {"5.2": "hipBLAS's math modes (HIPBLAS_DEFAULT_MATH) are newer than HIP 5.2: CPP058 reports the "
                                "emulated one, unfixed"},
    "CPP058-invalid-2": {"5.2": "hipBLAS's compute types (HIPBLAS_COMPUTE_64F) are newer than HIP 5.2: CPP058 reports "
                                "the emulated one, unfixed (the example's point)"},
    "HAZ018-invalid-4": {"5.2": "main calls a function only nvcc compiles: the example's point",
                         "6.4": "main calls a function only nvcc compiles: the example's point"},
    "CPP052-invalid-0": {"5.2": ROCWMMA, "6.4": ROCWMMA},
    "CPP052-invalid-1": {"5.2": ROCWMMA, "6.4": ROCWMMA},
    "CPP052-invalid-2": {"5.2": ROCWMMA, "6.4": ROCWMMA},
    "CPP052-invalid-5": {"5.2": ROCWMMA, "6.4": ROCWMMA},
    "CPP013-invalid-0": {"5.2": "meta_group_rank() of a tile made elsewhere: HIP 5.2 has none"},
    "CPP013-invalid-2": {"5.2": "meta_group_rank() of a tile made elsewhere: HIP 5.2 has none"},
    "CPP013-invalid-3": {"5.2": "grid_group::num_blocks() is in no HIP release",
                         "6.4": "grid_group::num_blocks() is in no HIP release"},
    "CPP013-invalid-4": {"5.2": "thread_block::dim_threads() is in no HIP release",
                         "6.4": "thread_block::dim_threads() is in no HIP release"},
    "CPP013-valid-6": {"5.2": "meta_group_rank() of a tile made elsewhere: HIP 5.2 has none"},
    "CPP040-invalid-0": {"5.2": "hipBLASLt came with ROCm 5.5 (its API as migrated with 6.1): HIP 5.2 has none"},
    "CPP040-valid-4": {"5.2": "hipBLASLt came with ROCm 5.5 (its API as migrated with 6.1): HIP 5.2 has none"},
    "CPP040-valid-5": {"5.2": "hipBLASLt came with ROCm 5.5 (its API as migrated with 6.1): HIP 5.2 has none"},
    "HAZ005-invalid-1": {"5.2": "inline PTX", "6.4": "inline PTX"},
    "HAZ005-invalid-2": {"5.2": "inline PTX", "6.4": "inline PTX"},
    "HAZ005-invalid-3": {"5.2": "inline PTX", "6.4": "inline PTX"},
    "HAZ016-invalid-4": {"5.2": "libcu++ (cuda/atomic) has no HIP port", "6.4": "libcu++ (cuda/atomic) has no HIP port"},
    **{f"CPP068-valid-{i}": {release: "libcu++ beyond CPP068's block (cuda::std::atomic, cuda::atomic_ref): HAZ016 "
                             "reports it" for release in ("5.2", "6.4")} for i in (2, 3)},
    "HAZ016-invalid-5": {"5.2": "cooperative_groups/memcpy_async.h has no HIP counterpart",
                         "6.4": "cooperative_groups/memcpy_async.h has no HIP counterpart"},


    "CPP030-invalid-0": {"5.2": MIOPEN_52},
    "CPP030-invalid-1": {"5.2": MIOPEN_52},
    "CPP030-invalid-2": {"5.2": MIOPEN_52},
    "CPP031-invalid-0": {"5.2": MIOPEN_52},
    "CPP033-invalid-5": {"5.2": MIOPEN_52},
    "CPP033-valid-7": {"5.2": MIOPEN_52},
    "HAZ016-valid-8": {"5.2": MIOPEN_52},
    **{f"CPP026-{kind}": {"5.2": "the bf16 type and intrinsics came with HIP 5.7 (CPP005 says so)"}
       for kind in ("invalid-0", "invalid-1", "invalid-2", "invalid-3", "valid-5", "valid-6")},
    "CPP026-invalid-4": {"5.2": "the bf16 type and intrinsics came with HIP 5.7 (CPP005 says so)",
                         "6.4": "no directed rounding to bf16 in HIP: reported, not rewritten"},
    "CPP025-invalid-0": {"5.2": "roctx.h: Debian 12 packages no roctracer for HIP 5.2 (this machine's limit)"},
    "CPP025-invalid-1": {"5.2": "roctx.h: Debian 12 packages no roctracer for HIP 5.2 (this machine's limit)"},
    "CPP025-valid-2": {"5.2": "roctx.h: Debian 12 packages no roctracer for HIP 5.2 (this machine's limit)"},
    "CPP025-invalid-5": {"5.2": "roctx.h: Debian 12 packages no roctracer for HIP 5.2 (this machine's limit)"},
}

# what this machine's toolchain lacks, not the migration: no warning is owed
MACHINE_LIMITS = {(name, "5.2") for name in ("CPP001-invalid-5", "CPP025-invalid-0", "CPP025-invalid-1",
                                             "CPP025-valid-2", "CPP025-invalid-5")} | {
                      (name, "6.4") for name in HIPCUB_EXAMPLES}


def cases():
    for rule in RULES:
        for index, example in enumerate(rule.examples):
            yield example_id(rule, index, example), example


def migrate(example, release: str) -> tuple[str, tuple]:
    packs = default_packs()
    options, _ = example_options(example, packs)
    options = replace(options, offload_arch=())
    result = translate(example.path or "example.cu", example.code.encode(), options, packs, release,
                       [r() for r in RULES])
    return result.data.decode(), result.findings


def nvcc() -> batches.Compiler:
    """nvcc's front end (--cuda) for sm_90: every name must be declared."""
    return batches.Compiler(lambda src, out: ["nvcc", "-arch=sm_90", "-std=c++17", "--cuda", str(src), "-o",
                                              str(out.with_suffix(".ii")), f"-I{CUDA_INCLUDE}"], ".cu")


def hip(compiler: str, targets: tuple[str, ...], extra: list[str]) -> batches.Compiler:
    base = [compiler, "-x", "hip", "-std=c++17", "-ferror-limit=0", *extra]
    return batches.Compiler(
        lambda src, out: [*base, *(f"--offload-arch={t}" for t in targets), "-c", str(src), "-o", str(out)], ".hip",
        env=toolchain.amd_env(), probe=lambda src: [*base, f"--offload-arch={targets[0]}", "--cuda-host-only",
                                                    "-fsyntax-only", str(src)])


def resolve_all(compiler: batches.Compiler, snippets: list[batches.Snippet], pool) -> dict[str, str | None]:
    grouped, lone = batches.groups(snippets)
    units = [b for part in pool.map(lambda g: batches.batches(compiler, g), grouped) for b in part]
    verdicts: dict[str, str | None] = {}
    for part in pool.map(lambda b: batches.resolve(compiler, b), [*units, *([s] for s in lone)]):
        verdicts.update(part)
    return verdicts


@pytest.fixture(scope="module")
def outcomes(hipcc, hipcc64) -> dict[str, tuple[dict[str, str | None], dict[str, bool]]]:
    """Every example's (release -> first error or None, release -> the migration warned); ({}, {}) for an example
    that is no complete unit. Compiled in batches (tests/batches.py), both cores busy from the first to the last."""
    need_tool("nvcc")
    every = dict(cases())
    releases = (("5.2", hip(hipcc, ("gfx90a",), [f"-I{toolchain.EXTRA_INCLUDE}"])), ("6.4", hip(hipcc64, TARGETS_64, [])))
    with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
        units = resolve_all(nvcc(), [batches.Snippet(name, ex.code) for name, ex in every.items()], pool)
        migrated = {(name, release): migrate(every[name], release)
                    for name, error in units.items() if error is None for release, _ in releases}
        errors: dict[str, dict[str, str | None]] = {name: {} for name, error in units.items() if error is None}
        for release, compiler in releases:
            # an example known not to build there is compiled alone: its failure must not cost a batch a split
            known = [batches.Snippet(name, migrated[name, release][0], alone=release in UNBUILT.get(name, {}))
                     for name in errors]
            for name, error in resolve_all(compiler, known, pool).items():
                errors[name][release] = error
    return {name: (errors.get(name, {}), {release: any(f.severity >= Severity.WARNING
                                                        for f in migrated[name, release][1])
                                          for release, _ in releases} if name in errors else {})
            for name in every}


@pytest.mark.nvcc
@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_example_units_build_for_amd_with_hip_5_2_and_6_4(rule, outcomes):
    mine = {name: outcome for name, outcome in outcomes.items() if name.startswith(f"{rule.code}-")}
    failed = {name: {r: e for r, e in errors.items() if e} for name, (errors, _) in mine.items()}
    failed = {name: errs for name, errs in failed.items() if errs}
    expected = {name: why for name, why in UNBUILT.items() if name.startswith(f"{rule.code}-")}
    assert {n: sorted(e) for n, e in failed.items()} == {n: sorted(w) for n, w in expected.items()}, failed
    for name, (_, warned) in mine.items():
        for release in failed.get(name, {}):
            if (name, release) in MACHINE_LIMITS:
                continue
            assert warned[release], f"{name}: its HIP {release} migration does not build and nothing warned"
