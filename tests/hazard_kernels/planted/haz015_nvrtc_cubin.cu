// expect: HAZ015 11
// Taking a cubin out of NVRTC to load it.
#include <nvrtc.h>
#include <cuda.h>
#include <vector>

bool loadCubin(nvrtcProgram prog, CUmodule* m) {
    size_t size = 0;
    nvrtcGetCUBINSize(prog, &size);
    std::vector<char> cubin(size);
    nvrtcGetCUBIN(prog, cubin.data());
    return cuModuleLoadData(m, cubin.data()) == CUDA_SUCCESS;
}
