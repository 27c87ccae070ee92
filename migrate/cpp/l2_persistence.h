#ifndef HIPMIGRATE_L2_PERSISTENCE
#define HIPMIGRATE_L2_PERSISTENCE
// hipmigrate: CUDA's persisting-L2 controls, which HIP lacks, in namespace hipmigrate_runtime with HIP's spelling.
// AMD GPUs set no part of the L2 aside for persisting accesses: a set-aside size asked for is granted as 0 (a limit
// may be clamped, and hipDeviceGetLimit reports what was granted), and no line persists, so none is reset. Every
// other limit goes to HIP's own hipDeviceSetLimit and hipDeviceGetLimit.
#include <hip/hip_runtime_api.h>

namespace hipmigrate_runtime {
#if HIP_VERSION_MAJOR >= 7
// CUDA's value, which no HIP limit has; hipLimit_t holds it from HIP 7 (its scratch limits are 0x1000 and up)
constexpr hipLimit_t hipLimitPersistingL2CacheSize = static_cast<hipLimit_t>(6);

inline hipError_t hipDeviceSetLimit(hipLimit_t limit, size_t value) {
  if (limit == hipLimitPersistingL2CacheSize) return hipSuccess;  // granted as 0: nothing is set aside
  return ::hipDeviceSetLimit(limit, value);
}

inline hipError_t hipDeviceGetLimit(size_t* value, hipLimit_t limit) {
  if (limit != hipLimitPersistingL2CacheSize) return ::hipDeviceGetLimit(value, limit);
  if (value == nullptr) return hipErrorInvalidValue;
  *value = 0;
  return hipSuccess;
}
#endif

inline hipError_t hipCtxResetPersistingL2Cache() { return hipSuccess; }
}  // namespace hipmigrate_runtime
#endif  // HIPMIGRATE_L2_PERSISTENCE
