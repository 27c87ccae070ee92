// expect: HAZ015 8
// NVRTC told to compile for a compute capability.
#include <nvrtc.h>

bool compile(const char* src) {
    nvrtcProgram prog;
    nvrtcCreateProgram(&prog, src, "k.cu", 0, nullptr, nullptr);
    const char* opts[] = {"--gpu-architecture=compute_80", "--std=c++17"};
    bool ok = nvrtcCompileProgram(prog, 2, opts) == NVRTC_SUCCESS;
    nvrtcDestroyProgram(&prog);
    return ok;
}
