"""The names of CUDA's texture fetch and surface functions, for the rules about textures: HAZ009 (texture references)
and HAZ029 (targets without HIP's image API)."""
FETCHES = ("tex1Dfetch", "tex1D", "tex2D", "tex3D", "tex1DLayered", "tex2DLayered", "texCubemap", "tex1DLod",
           "tex2DLod", "tex3DLod", "tex1DGrad", "tex2DGrad", "tex3DGrad", "tex2Dgather")
OBJECT_ONLY_FETCHES = ("texCubemapLayered", "texCubemapLod")  # through a texture object only
SURFACES = ("surf1Dread", "surf1Dwrite", "surf2Dread", "surf2Dwrite", "surf3Dread", "surf3Dwrite", "surf1DLayeredread",
            "surf1DLayeredwrite", "surf2DLayeredread", "surf2DLayeredwrite", "surfCubemapread", "surfCubemapwrite")


def alternatives(names) -> bytes:
    """The names as a regex alternation."""
    return "|".join(names).encode()
