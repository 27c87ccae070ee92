"""HIP's spelling of a CUDA name whose HIP counterpart (or hipmigrate's own, in a block) differs only in its prefix:
cublas -> hipblas, cusolver -> hipsolver, cuda -> hip, CUBLAS_ -> HIPBLAS_, CUDA_ -> HIP_. For the rules that name
what they write without a pack row (CPP053, CPP054, CPP058, CPP059, CPP064, CPP065)."""

PREFIXES = (("cublas", "hipblas"), ("cusolver", "hipsolver"), ("cuda", "hip"), ("CUBLAS_", "HIPBLAS_"),
            ("CUDA_", "HIP_"))


def hip_spelling(name: str) -> str:
    """NAME with its CUDA prefix replaced by HIP's; a name with none of them as it is."""
    for cuda, hip in PREFIXES:
        if name.startswith(cuda):
            return hip + name[len(cuda):]
    return name
