"""CUDA's named shared-memory carveout values, which HIP lacks: CPP069 writes their numbers (CPP006 leaves them)."""

VALUES = {"cudaSharedmemCarveoutDefault": "-1", "cudaSharedmemCarveoutMaxL1": "0", "cudaSharedmemCarveoutMaxShared": "100"}
