// Run-time compilation with NVRTC, left to pick the architecture of the current device.
#include <nvrtc.h>
#include <cuda.h>

bool compile(const char* source, CUmodule* module)
{
    nvrtcProgram prog;
    nvrtcCreateProgram(&prog, source, "kernel.cu", 0, nullptr, nullptr);
    const char* opts[] = {"-default-device", "-std=c++17"};
    if (nvrtcCompileProgram(prog, 2, opts) != NVRTC_SUCCESS)
        return false;
    size_t size = 0;
    nvrtcGetPTXSize(prog, &size);
    char* code = new char[size];
    nvrtcGetPTX(prog, code);
    bool ok = cuModuleLoadData(module, code) == CUDA_SUCCESS;
    delete[] code;
    nvrtcDestroyProgram(&prog);
    return ok;
}
