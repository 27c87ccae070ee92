"""CUDA device intrinsics HIP does not declare that are a clang builtin under another name: rule CPP048 writes them;
CPP006 leaves them to it. `__trap()` aborts the kernel; HIP's own device `abort()` is `__builtin_trap()`
(hip/amd_detail/hip_assert.h in HIP 6.4 and 7.2, amd_device_functions.h in 5.2)."""
BUILTINS = {"__trap": "__builtin_trap"}
