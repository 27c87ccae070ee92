"""A texture or surface function that the software texture path lacks, for a target whose HIP has no image API.

CDNA3 and CDNA4 (gfx940, gfx941, gfx942: MI300; gfx950: MI350) and gfx1250 have no texture units that HIP
exposes: HIP declares `tex1Dfetch`, `tex2D`, `tex3D`, `texCubemap`, `surf2Dwrite` and the rest unavailable there,
so a kernel that reads a texture object does not compile for them ("'tex2D<float, nullptr>' is unavailable: The
image/texture API not supported on the device", checked with HIP 6.4 and 7.2). gfx90a and the RDNA targets keep
them. CPP053 writes most of them in software (namespace hipmigrate_tex); what it lacks is reported here (an error)
at each call when a target of the migration lacks images (`--offload-arch`, else the release's default gfx942):
layered cube maps (`texCubemapLayered`), `texCubemapLod`, layered 1D and cube-map surfaces. Read the data through a
plain pointer (with `__ldg`, and the addressing done by hand), or build for a target that has textures.
rules/data/amd_targets.toml marks the targets; texture references are HAZ009's.
"""
import re

from migrate.cpp import parse
from migrate.cpp.textures import (FETCHES, OBJECT_ONLY_FETCHES, SOFTWARE_DEVICE, SURFACES, alternatives,
                                  has_texture_reference)
from migrate.model import Severity
from migrate.rule import HazardRule, Invalid, Valid
from migrate.targets import without_images

LACKING = tuple(name for name in FETCHES + OBJECT_ONLY_FETCHES + SURFACES if name not in SOFTWARE_DEVICE)
CALLS = re.compile(rb"\b(" + alternatives(LACKING) + rb")\s*(?:<[^;(){}]*>)?\s*\(")
GFX90A = (("offload_arch", ("gfx90a",)),)


def message(name: str, targets: list[str]) -> str:
    return (f"{name} is unavailable for {', '.join(targets)}: HIP has no image/texture API there, and hipmigrate's "
            "software texture path has none; read the data through a plain pointer (__ldg, addressing by hand) or "
            "build for a target with textures (gfx90a, RDNA)")


class TextureWithoutImageSupport(HazardRule):
    code = "HAZ029"
    severity = Severity.ERROR
    fixable = False
    examples = [
        # (the examples are written with HIP's type names: the renames of CUDA's would show as changes)
        Invalid("__global__ void k(float4* out, hipTextureObject_t t, int n) {\n"
                "    out[threadIdx.x] = texCubemapLayered<float4>(t, 1.0f, 0.5f, 0.5f, n);\n}\n",
                line=2, message=message("texCubemapLayered", ["gfx942"])),
        Invalid("__global__ void w(hipSurfaceObject_t s) { surf1DLayeredwrite(1.0f, s, 0, 0); }\n"),
        # what the software texture path (CPP053) has, a target with textures, and names in comments or strings
        Valid("__global__ void k(float* out, hipTextureObject_t t) { out[0] = tex2D<float>(t, 0.5f, 0.5f); }\n"),
        Valid("__global__ void k(float4* out, hipTextureObject_t t) { out[0] = texCubemapLod<float4>(t, 1, 0, 0, 0); }\n",
              options=GFX90A),
        Valid('// texCubemapLayered<float>(t, x, y, z, l) reads a texture\nconst char* s = "surfCubemapwrite(";\n'),
        # a texture reference left in a comment does not make the file HAZ009's
        Invalid("// texture<uchar4, 2, cudaReadModeNormalizedFloat> rgbaTex;\n"
                "__global__ void k(float4* out, hipTextureObject_t t) { out[0] = texCubemapLod<float4>(t, 1, 0, 0, 0); }\n",
                line=2),
    ]

    def check(self, ctx):
        if b"tex" not in ctx.data and b"surf" not in ctx.data:
            return
        lacking = without_images(ctx.targets)
        if not lacking or has_texture_reference(ctx):
            return  # texture references (in code, not in a comment): HAZ009 reports every use
        for m in CALLS.finditer(ctx.data):
            start, end = m.span(1)
            if ctx.locate(start, end)[0] not in (parse.Context.CODE, parse.Context.MACRO):
                continue
            yield self.finding(ctx, start, end, message(m.group(1).decode(), lacking))
