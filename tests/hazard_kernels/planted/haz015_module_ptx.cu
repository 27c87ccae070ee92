// expect: HAZ015 8
// Loading a PTX file through the driver API.
#include <cuda.h>

CUfunction load() {
    CUmodule module;
    CUfunction fn;
    cuModuleLoad(&module, "kernels.ptx");
    cuModuleGetFunction(&fn, module, "saxpy");
    return fn;
}
