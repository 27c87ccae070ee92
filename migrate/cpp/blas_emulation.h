#ifndef HIPMIGRATE_BLAS_EMULATION
#define HIPMIGRATE_BLAS_EMULATION
// hipmigrate: cuBLAS's emulated GEMMs (CUDA 13: double precision through fixed-point integer products, single
// precision through BF16x9) are a choice of method that hipBLAS does not offer: it computes in the precision the
// types name. The settings keep CUDA's types and values here, with HIP's spelling in namespace hipmigrate_blas, and
// setting one succeeds and changes nothing.
#include <hipblas/hipblas.h>

namespace hipmigrate_blas {

enum hipEmulationStrategy_t {
  HIP_EMULATION_STRATEGY_DEFAULT = 0,
  HIP_EMULATION_STRATEGY_PERFORMANT = 1,
  HIP_EMULATION_STRATEGY_EAGER = 2
};
typedef hipEmulationStrategy_t hipEmulationStrategy;

enum hipEmulationMantissaControl_t { HIP_EMULATION_MANTISSA_CONTROL_DYNAMIC = 0, HIP_EMULATION_MANTISSA_CONTROL_FIXED = 1 };
typedef hipEmulationMantissaControl_t hipEmulationMantissaControl;

enum hipEmulationSpecialValuesSupport_t {
  HIP_EMULATION_SPECIAL_VALUES_SUPPORT_DEFAULT = 0xFFFF,
  HIP_EMULATION_SPECIAL_VALUES_SUPPORT_NONE = 0,
  HIP_EMULATION_SPECIAL_VALUES_SUPPORT_INFINITY = 1,
  HIP_EMULATION_SPECIAL_VALUES_SUPPORT_NAN = 2
};
typedef hipEmulationSpecialValuesSupport_t hipEmulationSpecialValuesSupport;

enum hipblasEmulationStrategy_t {
  HIPBLAS_EMULATION_STRATEGY_DEFAULT = 0,
  HIPBLAS_EMULATION_STRATEGY_PERFORMANT = 1,
  HIPBLAS_EMULATION_STRATEGY_EAGER = 2
};

inline hipblasStatus_t hipblasSetEmulationStrategy(hipblasHandle_t, hipblasEmulationStrategy_t) {
  return HIPBLAS_STATUS_SUCCESS;
}
inline hipblasStatus_t hipblasSetEmulationStrategy(hipblasHandle_t, hipEmulationStrategy_t) {
  return HIPBLAS_STATUS_SUCCESS;
}
inline hipblasStatus_t hipblasSetEmulationSpecialValuesSupport(hipblasHandle_t, hipEmulationSpecialValuesSupport_t) {
  return HIPBLAS_STATUS_SUCCESS;
}
inline hipblasStatus_t hipblasSetFixedPointEmulationMantissaControl(hipblasHandle_t, hipEmulationMantissaControl_t) {
  return HIPBLAS_STATUS_SUCCESS;
}
inline hipblasStatus_t hipblasSetFixedPointEmulationMaxMantissaBitCount(hipblasHandle_t, int) {
  return HIPBLAS_STATUS_SUCCESS;
}
inline hipblasStatus_t hipblasSetFixedPointEmulationMantissaBitOffset(hipblasHandle_t, int) {
  return HIPBLAS_STATUS_SUCCESS;
}
inline hipblasStatus_t hipblasSetFixedPointEmulationMantissaBitCountPointer(hipblasHandle_t, int*) {
  return HIPBLAS_STATUS_SUCCESS;
}

}  // namespace hipmigrate_blas
#endif  // HIPMIGRATE_BLAS_EMULATION
