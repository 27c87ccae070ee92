// main.cu: fills the constant-memory coefficients, runs the stencil on the
// GPU and compares it with a CPU reference.
#include <hip/hip_runtime.h>
#include <cmath>
#include <cstring>
#include <vector>
#include "stencil.cuh"

int main()
{
    const int N = 1000003;   // prime, so the last block is partial

    // Binomial smoothing weights / 256: exact in float and summing to 1.
    const float h_coeffs[NUM_COEFFS] = {1 / 256.f, 8 / 256.f, 28 / 256.f, 56 / 256.f, 70 / 256.f,
                                        56 / 256.f, 28 / 256.f, 8 / 256.f, 1 / 256.f};
    upload_coefficients(h_coeffs);

    float check[NUM_COEFFS];
    download_coefficients(check);
    bool coeffs_ok = memcmp(check, h_coeffs, sizeof(h_coeffs)) == 0;

    float *d_in, *d_out;
    CUDA_CHECK(hipMalloc((void**)&d_in, N * sizeof(float)));
    CUDA_CHECK(hipMalloc((void**)&d_out, N * sizeof(float)));

    int grid = (N + BLOCK_SIZE - 1) / BLOCK_SIZE;
    init_signal<<<grid, BLOCK_SIZE>>>(d_in, N);
    CUDA_CHECK(hipGetLastError());
    stencil_1d<<<grid, BLOCK_SIZE>>>(d_in, d_out, N);
    CUDA_CHECK(hipGetLastError());

    std::vector<float> h_out(N);
    CUDA_CHECK(hipMemcpy(h_out.data(), d_out, N * sizeof(float), hipMemcpyDeviceToHost));

    // CPU reference. Inputs are integers < 256 and weights are k/256, so
    // every product and partial sum is a multiple of 1/256 below 256: all
    // exact in float, and the GPU result must match bit for bit.
    int mismatches = 0;
    double max_err = 0.0;
    for (int i = 0; i < N; ++i) {
        float acc = 0.0f;
        for (int k = 0; k < NUM_COEFFS; ++k)
            acc += h_coeffs[k] * signal_value(clamp_index(i + k - RADIUS, N));
        double err = fabs((double)h_out[i] - (double)acc);
        if (err > max_err)
            max_err = err;
        if (h_out[i] != acc)
            ++mismatches;
    }

    CUDA_CHECK(hipFree(d_in));
    CUDA_CHECK(hipFree(d_out));

    bool ok = coeffs_ok && mismatches == 0;
    printf("multifile_constant: N=%d radius=%d coeffs_readback=%s max_abs_err=%.3e mismatches=%d\n",
           N, RADIUS, coeffs_ok ? "ok" : "BAD", max_err, mismatches);
    printf("%s\n", ok ? "PASSED" : "FAILED");
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
