// expect: HAZ016 3
// A cuDNN convolution setup.
#include <cudnn.h>

cudnnHandle_t makeHandle() {
    cudnnHandle_t h;
    cudnnCreate(&h);
    return h;
}
