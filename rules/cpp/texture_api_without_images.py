"""Texture and surface objects, and the arrays behind them, for a target whose HIP has no image API: written in software.

CDNA3 and CDNA4 (gfx940-gfx942: MI300; gfx950: MI350) and gfx1250 have no image hardware that HIP exposes: HIP
declares `tex2D`, `tex1Dfetch`, `surf2Dwrite` and the rest unavailable there, so a kernel that reads a texture does
not compile for them (HAZ029). Where a target of the migration lacks images (`--offload-arch`, else the release's
default gfx942), the first such call of a file gets, after the includes before it, an implementation of them in
software (migrate/cpp/texture_shim.h, namespace `hipmigrate_tex`, guarded so that a file that gets it twice through
its headers compiles), and every call of a fetch, a surface read or write, and of the host functions that make,
fill and free arrays and texture or surface objects is qualified with that namespace: `tex2D<float>(t, x, y)` ->
`hipmigrate_tex::tex2D<float>(t, x, y)`, `cudaMallocArray(&a, &d, w, h)` -> `hipmigrate_tex::hipMallocArray(&a, &d,
w, h)`. An array is plain device memory, a texture object a descriptor in device memory, and a fetch computes what
the texture unit would: addressing (wrap, clamp, mirror, border), normalized coordinates, normalized reads of 8- and
16-bit integers, linear filtering with CUDA's 8-bit fractional weights, layers, cube maps, gathers; a level of
detail or gradient reads the base level (there are no mipmaps). `benchmarks/device/texture_check.sh` compares the
results with CUDA's texture hardware on an NVIDIA GPU: fetches, conversions, gathers, surfaces and the filter weights
match exactly; the hardware's fixed-point coordinates can move a linear-filtering weight by one step (1/256) or
pick the neighbouring texel at exactly a texel's edge under normalized coordinates, and CUDA filters cube maps across
face edges where this path stays on one face (benchmarks/README.md). Speed differs: measure the kernels that read
textures.

The whole program must use one path: an array or object made by HIP's runtime and read by the software path, or
the reverse, is garbage. So every file with such a call is rewritten, and what the software path cannot stand for
is an error at the call: mipmapped arrays, arrays mapped from graphics or external memory, and reading a texture
object's descriptors back. HAZ029 reports the fetches it lacks (`texCubemapLayered`, `texCubemapLod`, layered 1D
and cube-map surfaces). A file with texture references (`texture<...>`) is HAZ009's.
"""
import re

from migrate.cpp import blocks, parse
from migrate.cpp.spelling import hip_spelling
from migrate.cpp.textures import (MARKER, NAMESPACE, NOT_SOFTWARE, SOFTWARE_DEVICE, SOFTWARE_HOST, alternatives,
                                  block, has_texture_reference)
from migrate.model import Edit, Severity
from migrate.rule import CppRule, Invalid, Valid
from migrate.targets import without_images

HOST = tuple(name[3:] for name in SOFTWARE_HOST)
CALL = re.compile(rb"(?<![\w:.>])(" + alternatives(SOFTWARE_DEVICE) + rb"|(?:cuda|hip)(?:" + alternatives(HOST)
                  + rb"))\s*(?:<[^;(){}]*>)?\s*\(")
UNCOVERED = re.compile(rb"\b(?:cuda|hip)(" + alternatives(NOT_SOFTWARE) + rb")\b")
GFX90A = (("offload_arch", ("gfx90a",)),)
KERNEL = ("#include <cuda_runtime.h>\n"
          "__global__ void blur(float* out, cudaTextureObject_t t, int w) {\n"
          "    int x = threadIdx.x;\n"
          "    out[x] = tex2D<float>(t, x + 0.5f, 0.5f);\n}\n")
HOST_CODE = ("void upload(const float* h, int w, int h2, cudaTextureObject_t* t, cudaArray_t* a) {\n"
             "    cudaChannelFormatDesc d = cudaCreateChannelDesc<float>();\n"
             "    cudaMallocArray(a, &d, w, h2);\n"
             "    cudaMemcpy2DToArray(*a, 0, 0, h, w * sizeof(float), w * sizeof(float), h2, cudaMemcpyHostToDevice);\n"
             "    cudaResourceDesc r = {};\n    r.resType = cudaResourceTypeArray;\n    r.res.array.array = *a;\n"
             "    cudaTextureDesc td = {};\n    td.filterMode = cudaFilterModeLinear;\n"
             "    cudaCreateTextureObject(t, &r, &td, nullptr);\n}\n")


def _message(name: str, targets: list[str]) -> str:
    return (f"{name}: {_lack(targets)}, so {NAMESPACE}::{name} of the software texture path is used (same results, "
            "computed in the kernel)")


def _lack(targets: list[str]) -> str:
    return f"{', '.join(targets)} {'has' if len(targets) == 1 else 'have'} no image hardware"


def _fixed(text: str) -> str:
    for name in ("tex2D<", "cudaMallocArray(", "cudaMemcpy2DToArray(", "cudaCreateTextureObject("):
        hip = name.replace("cuda", "hip")
        text = text.replace(name, f"{NAMESPACE}::{hip}")
    text = text.replace("#include <cuda_runtime.h>\n", "#include <cuda_runtime.h>\n" + block() + "\n")
    for cuda, hip in (("cudaTextureObject_t", "hipTextureObject_t"), ("cudaArray_t", "hipArray_t"),
                      ("cudaChannelFormatDesc", "hipChannelFormatDesc"), ("cudaCreateChannelDesc", "hipCreateChannelDesc"),
                      ("cudaMemcpyHostToDevice", "hipMemcpyHostToDevice"), ("cudaResourceDesc", "hipResourceDesc"),
                      ("cudaResourceTypeArray", "hipResourceTypeArray"), ("cudaTextureDesc", "hipTextureDesc"),
                      ("cudaFilterModeLinear", "hipFilterModeLinear")):
        text = text.replace(cuda, hip)
    return text


class TextureApiWithoutImages(CppRule):
    code = "CPP053"
    severity = Severity.INFO
    examples = [
        Invalid(KERNEL, fixed=_fixed(KERNEL), line=4, message=_message("tex2D", ["gfx942"])),
        Invalid(KERNEL + HOST_CODE, fixed=_fixed(KERNEL + HOST_CODE), line=4),
        # a surface written in a header with no include: the block goes first
        Invalid("__global__ void fill(hipSurfaceObject_t s) { surf2Dwrite(1.0f, s, threadIdx.x * 4, 0); }\n",
                fixed=block() + "\n__global__ void fill(hipSurfaceObject_t s) { hipmigrate_tex::surf2Dwrite(1.0f, s, "
                      "threadIdx.x * 4, 0); }\n", line=1),
        # a mipmapped array cannot be one of the software path's: an error at the call, the rest rewritten
        Invalid("#include <cuda_runtime.h>\nvoid f(cudaMipmappedArray_t m, cudaArray_t* level, cudaTextureObject_t t) {\n"
                "    cudaGetMipmappedArrayLevel(level, m, 0);\n    cudaDestroyTextureObject(t);\n}\n",
                fixed="#include <cuda_runtime.h>\n" + block() + "\nvoid f(hipMipmappedArray_t m, hipArray_t* level, "
                      "hipTextureObject_t t) {\n    hipGetMipmappedArrayLevel(level, m, 0);\n    "
                      "hipmigrate_tex::hipDestroyTextureObject(t);\n}\n", line=3,
                message="cudaGetMipmappedArrayLevel: mipmapped arrays, arrays of graphics or external memory and "
                        "reading a texture object's descriptors back are not in the software texture path, and "
                        "gfx942 has no image hardware: rewrite this part by hand"),
        # a target with image hardware keeps HIP's own textures
        Valid(KERNEL, options=GFX90A),
        # already written with the namespace, and names in comments, strings or of other scopes
        Valid("__global__ void k(float* o, hipTextureObject_t t) { o[0] = hipmigrate_tex::tex1Dfetch<float>(t, 0); }\n"),
        Valid('// tex2D<float>(t, x, y) reads a texture\nconst char* s = "tex3D(";\nfloat g(Img& i) { return i.tex2D(1); }\n'),
        # texture references are HAZ009's
        Valid("texture<float, 2> ref;\n__global__ void k(float* o) { o[0] = tex2D(ref, 0.5f, 0.5f); }\n"),
    ]

    def check(self, ctx):
        data = ctx.data
        if b"tex" not in data and b"surf" not in data and b"Array" not in data:
            return
        lacking = without_images(ctx.targets)
        if not lacking or has_texture_reference(ctx):
            return
        present, sites = blocks.sites(ctx, CALL, MARKER)
        if not sites:
            return
        for m in UNCOVERED.finditer(data):
            if ctx.locate(m.start(), m.end())[0] in (parse.Context.CODE, parse.Context.MACRO):
                yield self.finding(ctx, m.start(), m.end(), f"{m.group().decode()}: mipmapped arrays, arrays of graphics "
                                   "or external memory and reading a texture object's descriptors back are not in the "
                                   f"software texture path, and {_lack(lacking)}: rewrite this part by hand",
                                   severity=Severity.ERROR)
        insert = [] if present else [blocks.place(ctx, sites[0].start(), block(ctx.newline))]
        for m in sites:
            name = m.group(1).decode()
            hip = hip_spelling(name)
            yield self.finding(ctx, m.start(1), m.end(1), _message(hip, lacking),
                               edits=[*insert, Edit(m.start(1), m.start(1), f"{NAMESPACE}::")],
                               title=f"Use {NAMESPACE}::{hip}")
