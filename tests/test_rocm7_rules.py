"""The ROCm 7 wave-size rules against the real compilers: HIP 7.2 (tests/conftest.py: hipcc72) and HIP 6.4 (hipcc64).

Every Invalid example of HAZ027 and HAZ028, and HAZ001's examples that write HIPMIGRATE_WAVE_SIZE, migrated for 7.2
with the whole engine and --unsafe-fixes, compiles with HIP 7.2 for gfx942 (wave64) and gfx1201 (wave32); the
unfixed code does not (the exact errors), though HIP 6.4 compiles it; and the block of migrate/cpp/wave_size.py
gives 64 on gfx942 and 32 on gfx1201 in the device pass, which is what 6.4's __AMDGCN_WAVEFRONT_SIZE gave in both
passes."""
from __future__ import annotations

import os
import subprocess
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import pytest

from migrate import toolchain
from migrate.cpp import wave_size
from migrate.cpp_engine import translate
from migrate.packs import default_packs
from migrate.registry import default_registry
from migrate.rule import Invalid
from migrate.testing import example_id, example_options
from tests import batches

pytestmark = [pytest.mark.hipcc, pytest.mark.xdist_group("rocm7-rules")]  # one worker compiles the batches

REGISTRY = default_registry()
TARGETS = ("gfx942", "gfx1201")
RUNTIME = "#include <hip/hip_runtime.h>\n"


def cases():
    out = []
    for rule in REGISTRY.rules:
        if rule.code not in ("HAZ001", "HAZ027", "HAZ028"):
            continue
        for i, ex in enumerate(rule.examples):
            if not isinstance(ex, Invalid) or (rule.code == "HAZ001" and wave_size.MACRO not in (ex.fixed or "")):
                continue
            out.append(pytest.param(ex, id=example_id(rule, i, ex)))
    return out


def compile_(hipcc: str, source: str, target: str, cwd: Path, *flags: str) -> subprocess.CompletedProcess:
    path = cwd / f"x-{target}.hip"
    path.write_text(source)
    return subprocess.run([hipcc, f"--offload-arch={target}", "-c", *flags, path.name, "-o", f"{path.stem}.o"],
                          capture_output=True, text=True, cwd=cwd, timeout=600,
                          env={**os.environ, "HIP_PLATFORM": "amd", "TMPDIR": str(cwd)})


def migrated(example: Invalid) -> str:
    packs = default_packs()
    options, _ = example_options(example, packs)
    options = replace(options, hip_version="7.2", unsafe_fixes=True)
    result = translate("example.cu", example.code.encode(), options, packs, "7.2", [r() for r in REGISTRY.cpp()])
    return result.data.decode()


@pytest.fixture(scope="module")
def built(hipcc72) -> dict[str, str | None]:
    """Every case's migration for 7.2, compiled for both targets in one compile, in batches (tests/batches.py):
    example id -> None, or its first error."""
    base = [hipcc72, "-x", "hip", "-std=c++17", "-ferror-limit=0"]
    compiler = batches.Compiler(
        lambda src, out: [*base, *(f"--offload-arch={t}" for t in TARGETS), "-c", str(src), "-o", str(out)], ".hip",
        env=toolchain.amd_env(), probe=lambda src: [*base, f"--offload-arch={TARGETS[0]}", "--cuda-host-only",
                                                    "-fsyntax-only", str(src)])
    snippets = []
    for case in cases():
        text = migrated(case.values[0])
        snippets.append(batches.Snippet(case.id, text if "hip/hip_runtime.h" in text else RUNTIME + text))
    grouped, lone = batches.groups(snippets)
    units = [b for group in grouped for b in batches.batches(compiler, group)] + [[s] for s in lone]
    verdicts: dict[str, str | None] = {}
    with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
        for part in pool.map(lambda b: batches.resolve(compiler, b), units):
            verdicts.update(part)
    return verdicts


@pytest.mark.parametrize("example", cases())
def test_invalid_example_migrated_for_7_2_compiles_with_7_2(built, request, example):
    name = request.node.callspec.id
    assert built[name] is None, f"{name}:\n{migrated(example)}\n{built[name]}"


SHARED = RUNTIME + "__global__ void k(float* o) {\n  __shared__ float s[warpSize];\n  s[threadIdx.x % warpSize] = 1;\n" \
                   "  o[0] = s[0];\n}\n"
MACRO = RUNTIME + "__global__ void k(int* o) {\n  o[0] = __AMDGCN_WAVEFRONT_SIZE__;\n}\n"


@pytest.mark.parametrize(("source", "error"), [
    (SHARED, "x-gfx942.hip:3:22: error: array size is not a constant expression"),
    (MACRO, "x-gfx942.hip:3:10: error: use of undeclared identifier '__AMDGCN_WAVEFRONT_SIZE__'"),
], ids=("warpSize-bound", "wavefront-macro"))
def test_unfixed_code_fails_with_7_2_and_compiles_with_6_4(hipcc72, hipcc64, tmp_path, source, error):
    new = compile_(hipcc72, source, "gfx942", tmp_path)
    assert new.returncode != 0 and error in new.stderr, new.stderr
    old = compile_(hipcc64, source, "gfx942", tmp_path)
    assert old.returncode == 0, old.stderr


CHECK = wave_size.block() + RUNTIME + "__global__ void k(int* o) {\n  static_assert(HIPMIGRATE_WAVE_SIZE == WANT, \"\");\n" \
                                      "  __shared__ int s[HIPMIGRATE_WAVE_SIZE];\n  o[0] = s[0];\n}\n"


@pytest.mark.parametrize(("target", "wave"), [("gfx942", 64), ("gfx1201", 32)])
def test_the_block_gives_each_targets_wave_size(hipcc72, hipcc64, tmp_path, target, wave):
    device = compile_(hipcc72, CHECK, target, tmp_path, "--offload-device-only", f"-DWANT={wave}")
    assert device.returncode == 0, device.stderr
    host = compile_(hipcc72, CHECK, target, tmp_path, "--offload-host-only", "-DWANT=64")
    assert host.returncode == 0, host.stderr
    # the values 6.4's macro had, in both passes
    same = compile_(hipcc64, CHECK, target, tmp_path, "-DWANT=__AMDGCN_WAVEFRONT_SIZE", "-Wno-deprecated-pragma")
    assert same.returncode == 0, same.stderr


def test_the_block_never_lands_inside_a_comment_continued_by_a_backslash():
    """A `//` comment whose line ends in a backslash goes on to the next line: the wave-size block goes after both
    (it was put between them, so the block became comment and the comment's second line code; a fuzz find)."""
    data = b"// sizes \\\nstill the comment\n#include <hip/hip_runtime.h>\n__shared__ float s[warpSize];\n"
    from migrate.cpp.context import CppContext
    from migrate.options import Options

    [edit] = wave_size.block_edits(CppContext("k.cu", data, Options(), default_packs(), "7.2"))
    assert edit.start == data.index(b"#include")
