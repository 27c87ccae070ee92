"""The names of CUDA's texture fetch and surface functions, for the rules about textures: HAZ009 (texture references),
HAZ029 (targets without HIP's image API, what the software path lacks) and CPP053 (the software path)."""
import re

from migrate.cpp import blocks, parse

FETCHES = ("tex1Dfetch", "tex1D", "tex2D", "tex3D", "tex1DLayered", "tex2DLayered", "texCubemap", "tex1DLod",
           "tex2DLod", "tex3DLod", "tex1DGrad", "tex2DGrad", "tex3DGrad", "tex2Dgather")
OBJECT_ONLY_FETCHES = ("texCubemapLayered", "texCubemapLod")  # through a texture object only
SURFACES = ("surf1Dread", "surf1Dwrite", "surf2Dread", "surf2Dwrite", "surf3Dread", "surf3Dwrite", "surf1DLayeredread",
            "surf1DLayeredwrite", "surf2DLayeredread", "surf2DLayeredwrite", "surfCubemapread", "surfCubemapwrite")

# What the software path (migrate/cpp/texture_shim.h, namespace hipmigrate_tex) defines, by HIP's names: the device
# functions, and the host functions that make or read arrays and texture or surface objects (CUDA's name is "cuda"
# for "hip"). Every call of one in a file is written with the namespace, so that the objects and arrays a program
# makes are all the software path's.
SOFTWARE_DEVICE = ("tex1Dfetch", "tex1D", "tex2D", "tex3D", "tex1DLayered", "tex2DLayered", "texCubemap", "tex1DLod",
                   "tex2DLod", "tex3DLod", "tex1DGrad", "tex2DGrad", "tex3DGrad", "tex2Dgather", "surf1Dread",
                   "surf1Dwrite", "surf2Dread", "surf2Dwrite", "surf3Dread", "surf3Dwrite", "surf2DLayeredread",
                   "surf2DLayeredwrite")
SOFTWARE_HOST = ("hipMallocArray", "hipMalloc3DArray", "hipFreeArray", "hipArrayGetInfo", "hipGetChannelDesc",
                 "hipMemcpy2DToArray", "hipMemcpy2DToArrayAsync", "hipMemcpy2DFromArray", "hipMemcpy2DArrayToArray",
                 "hipMemcpyToArray", "hipMemcpyFromArray", "hipMemcpy3D", "hipMemcpy3DAsync", "hipCreateTextureObject",
                 "hipDestroyTextureObject", "hipCreateSurfaceObject", "hipDestroySurfaceObject")
# Arrays and objects the software path cannot stand for: a file that uses one keeps HIP's own path (and HAZ029's or
# CPP053's report)
NOT_SOFTWARE = ("MallocMipmappedArray", "GetMipmappedArrayLevel", "FreeMipmappedArray", "GraphicsSubResourceGetMappedArray",
                "GetTextureObjectResourceDesc", "GetTextureObjectTextureDesc", "ExternalMemoryGetMappedMipmappedArray")
MARKER = "HIPMIGRATE_TEXTURES_IN_SOFTWARE"
TEXTURE_REFERENCE = re.compile(rb"\btexture\s*<")
NAMESPACE = "hipmigrate_tex"


def alternatives(names) -> bytes:
    """The names as a regex alternation."""
    return "|".join(names).encode()


def block(newline: str = "\n") -> str:
    """The software path, as the block CPP053 writes into a file (guarded by MARKER)."""
    return blocks.text("texture_shim.h", newline)


def has_texture_reference(ctx) -> bool:
    """Whether the file declares a texture reference (`texture<...>`) in code, not in a comment: HAZ009's file, left
    alone by HAZ029 and CPP053."""
    return any(ctx.locate(m.start(), m.end())[0] is parse.Context.CODE for m in TEXTURE_REFERENCE.finditer(ctx.data))
