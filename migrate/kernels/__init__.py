"""The static per-kernel diff of `hipmigrate build --kernels`: each kernel's registers, shared memory (LDS) and
spills as nvcc reports them for the original CUDA tree and as hipcc reports them for the migrated one, paired by
name, with the occupancy each gives on the GPUs of rules/data/hardware.toml and findings where the AMD side loses.

Modules: hardware (the data file), occupancy (the arithmetic), ptxas and amdgpu (running and parsing the two
compilers), demangle, sources (kernel definitions and launch configurations in the CUDA sources), pairing,
findings (the PRF codes), diff (the stage that ties them together), state (kernels.json).
"""
