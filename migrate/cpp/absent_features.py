"""Device attributes for NVIDIA features that AMD GPUs lack, which HIP does not name: CPP073 answers their queries
with 0 (CPP006 leaves the names in those calls to it)."""
from migrate.cpp.calls import api_arguments, arguments, call_of

# attribute -> the feature it asks about
ATTRIBUTES = {
    "CU_DEVICE_ATTRIBUTE_GENERIC_COMPRESSION_SUPPORTED": "compressible memory",
    "CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH": "thread block clusters", "cudaDevAttrClusterLaunch": "thread block clusters",
    "CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE": "a persisting L2 carve-out",
    "cudaDevAttrMaxPersistingL2CacheSize": "a persisting L2 carve-out",
}
QUERIES = {"cuDeviceGetAttribute": 1, "cudaDeviceGetAttribute": 1}  # the attribute's position in the call


def answered(ctx) -> list:
    """(call node, the value argument, the attribute's name) for each query of one of ATTRIBUTES in code."""
    return ctx.once("absent_features", _answered)


def _answered(ctx) -> list:
    if not any(name.encode() in ctx.data for name in ATTRIBUTES):
        return []
    found = []
    for token, arg in api_arguments(ctx, QUERIES):
        name = arg.text.decode("utf-8", "replace").strip()
        call = call_of(token)
        if token.base == 0 and name in ATTRIBUTES and len(arguments(call)) == 3:
            found.append((call, arguments(call)[0], name))
    return found


def inside_answered(ctx, offset: int) -> bool:
    """Whether OFFSET lies in a query CPP073 answers."""
    return any(call.start_byte <= offset < call.end_byte for call, _, _ in answered(ctx))
