"""The fixes that need HIP 7.2 or a target without image hardware, against the real compilers.

Every Invalid example of the rules in CODES (CPP053, the software texture path; CPP055, cuBLAS's and cuSOLVER's
choices of method; CPP056, definitions HIP's headers make; CPP058, cuBLAS's emulation settings; CPP059, hipBLAS's
arrays of matrices; CPP060, intrinsics HIP lacks; CPP061, `= {}` on half types; CPP062, hipCUB's warp transpose;
CPP063, a linkage string glued to a keyword; CPP064, cuSOLVER's 64-bit eigensolvers and SVDs; CPP065, cuBLAS
extensions; CPP066, `#ifdef __NVCC__` opened to hipcc; CPP067, persisting-L2 controls; CPP068, libcu++'s barrier and
pipelines; CPP069, carveout values; CPP070, one-instruction inline PTX; CPP071, arithmetic on CUdeviceptr; CPP072,
std::printf in device code; CPP074, CUDA version gates whose HIP branch cannot compile; CPP075, a typed pointer's
address where HIP takes only void**; CPP076, CUB's CubDebugExit) and CPP054's examples for 7.2 (CUDA 13's memory-
location calls as HIP's `_v2` calls), migrated for 7.2 with the whole engine, compile with HIP 7.2 for gfx942, gfx950
and gfx1201; the software texture block alone compiles with HIP 6.4 for gfx942 and gfx90a; and HIP's own texture fetch
does not compile for gfx942 (the class CPP053 is for), with HIP's message."""
from __future__ import annotations

import os
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest

from migrate.cpp import textures
from migrate.cpp_engine import translate
from migrate.packs import default_packs
from migrate.registry import default_registry
from migrate.rule import Invalid
from migrate.testing import example_id, example_options

pytestmark = [pytest.mark.hipcc, pytest.mark.xdist_group("hip72-fixes")]

REGISTRY = default_registry()
TARGETS = ("gfx942", "gfx950", "gfx1201")
CODES = ("CPP053", "CPP055", "CPP056", "CPP058", "CPP059", "CPP060", "CPP061", "CPP062", "CPP063", "CPP064",
         "CPP065", "CPP066", "CPP067", "CPP068", "CPP069", "CPP070",
         "CPP071", "CPP072", "CPP073", "CPP074", "CPP075", "CPP076")


def cases():
    out = []
    for rule in REGISTRY.rules:
        for i, ex in enumerate(rule.examples):
            if isinstance(ex, Invalid) and (rule.code in CODES or (
                    rule.code == "CPP054" and dict(ex.options).get("hip_version") == "7.2")):
                out.append(pytest.param(ex, id=example_id(rule, i, ex)))
    return out


def compile_(hipcc: str, source: str, targets, cwd: Path) -> subprocess.CompletedProcess:
    path = cwd / "x.hip"
    path.write_text(source)
    return subprocess.run([hipcc, "-x", "hip", "-std=c++17", *(f"--offload-arch={t}" for t in targets), "-c",
                           path.name, "-o", "x.o"], capture_output=True, text=True, cwd=cwd, timeout=600,
                          env={**os.environ, "HIP_PLATFORM": "amd", "TMPDIR": str(cwd)})


def migrated(example: Invalid) -> str:
    packs = default_packs()
    options, _ = example_options(example, packs)
    options = replace(options, hip_version="7.2")
    result = translate("example.cu", example.code.encode(), options, packs, "7.2", [r() for r in REGISTRY.cpp()])
    return result.data.decode()


@pytest.mark.parametrize("example", cases())
def test_example_migrated_for_7_2_compiles_for_targets_without_images(hipcc72, tmp_path, example):
    source = migrated(example)
    if "#include" not in source.split(textures.MARKER)[0]:
        source = "#include <hip/hip_runtime.h>\n" + source  # a header's code: its includer gives it HIP
    if "hipblas" in source and "hipblas.h" not in source:
        source = "#include <hipblas/hipblas.h>\n" + source
    done = compile_(hipcc72, source, TARGETS, tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]


def test_texture_block_compiles_with_hip_6_4(hipcc64, tmp_path):
    done = compile_(hipcc64, textures.block() + "\n", ("gfx942", "gfx90a"), tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]


def test_hips_own_fetch_is_unavailable_for_gfx942(hipcc72, tmp_path):
    source = ("#include <hip/hip_runtime.h>\n__global__ void k(float* o, hipTextureObject_t t) "
              "{ o[0] = tex2D<float>(t, 0.5f, 0.5f); }\n")
    done = compile_(hipcc72, source, ("gfx942",), tmp_path)
    assert done.returncode != 0
    assert "The image/texture API not supported on the device" in done.stderr
