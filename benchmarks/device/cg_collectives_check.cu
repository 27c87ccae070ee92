// Checks on an NVIDIA GPU that the cooperative-groups collectives hipmigrate writes for HIP (CPP023,
// migrate/cpp/cg_collectives.py, saved as hipmigrate_cg.h by benchmarks/device/cg_collectives_check.sh) give what
// CUDA's own cg::reduce, cg::inclusive_scan and cg::exclusive_scan give, thread by thread: tiles of 1 to 32 lanes
// and coalesced groups of random lanes, with every operator. Prints one line per case and PASSED or FAILED.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include "hipmigrate_cg.h"
namespace cg = cooperative_groups;

constexpr int THREADS = 256;

template <int N, class CudaOp, class MineOp>
__global__ void on_tiles(const int* in, int* ref, int* mine, int which) {
    auto tile = cg::tiled_partition<N>(cg::this_thread_block());
    int v = in[threadIdx.x];
    int a = 0, b = 0;
    if (which == 0) { a = cg::reduce(tile, v, CudaOp()); b = hipmigrate_cg::reduce(tile, v, MineOp()); }
    if (which == 1) { a = cg::inclusive_scan(tile, v, CudaOp()); b = hipmigrate_cg::inclusive_scan(tile, v, MineOp()); }
    if (which == 2) { a = cg::exclusive_scan(tile, v, CudaOp()); b = hipmigrate_cg::exclusive_scan(tile, v, MineOp()); }
    ref[threadIdx.x] = a;
    mine[threadIdx.x] = b;
}

template <class CudaOp, class MineOp>
__global__ void on_coalesced(const int* in, const int* active, int* ref, int* mine, int which) {
    ref[threadIdx.x] = mine[threadIdx.x] = -7;
    if (!active[threadIdx.x]) return;
    cg::coalesced_group g = cg::coalesced_threads();
    int v = in[threadIdx.x];
    int a = 0, b = 0;
    if (which == 0) { a = cg::reduce(g, v, CudaOp()); b = hipmigrate_cg::reduce(g, v, MineOp()); }
    if (which == 1) { a = cg::inclusive_scan(g, v, CudaOp()); b = hipmigrate_cg::inclusive_scan(g, v, MineOp()); }
    if (which == 2) { a = cg::exclusive_scan(g, v, CudaOp()); b = hipmigrate_cg::exclusive_scan(g, v, MineOp()); }
    ref[threadIdx.x] = a;
    mine[threadIdx.x] = b;
}

static int *d_in, *d_active, *d_ref, *d_mine;
static std::vector<int> h_ref(THREADS), h_mine(THREADS);
static int failures = 0, cases = 0;
static const char* WHAT[] = {"reduce", "inclusive_scan", "exclusive_scan"};

static void compare(const char* group, const char* op, int which) {
    cudaMemcpy(h_ref.data(), d_ref, THREADS * sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(h_mine.data(), d_mine, THREADS * sizeof(int), cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int t = 0; t < THREADS; ++t) bad += h_ref[t] != h_mine[t];
    ++cases;
    failures += bad != 0;
    printf("%-14s %-16s %-8s %s (%d of %d threads differ)\n", group, WHAT[which], op, bad ? "FAILED" : "ok", bad, THREADS);
}

template <class CudaOp, class MineOp>
static void all_groups(const char* op) {
    for (int which = 0; which < 3; ++which) {
        on_tiles<1, CudaOp, MineOp><<<1, THREADS>>>(d_in, d_ref, d_mine, which); compare("tile<1>", op, which);
        on_tiles<2, CudaOp, MineOp><<<1, THREADS>>>(d_in, d_ref, d_mine, which); compare("tile<2>", op, which);
        on_tiles<4, CudaOp, MineOp><<<1, THREADS>>>(d_in, d_ref, d_mine, which); compare("tile<4>", op, which);
        on_tiles<8, CudaOp, MineOp><<<1, THREADS>>>(d_in, d_ref, d_mine, which); compare("tile<8>", op, which);
        on_tiles<16, CudaOp, MineOp><<<1, THREADS>>>(d_in, d_ref, d_mine, which); compare("tile<16>", op, which);
        on_tiles<32, CudaOp, MineOp><<<1, THREADS>>>(d_in, d_ref, d_mine, which); compare("tile<32>", op, which);
        on_coalesced<CudaOp, MineOp><<<1, THREADS>>>(d_in, d_active, d_ref, d_mine, which);
        compare("coalesced", op, which);
    }
}

int main() {
    std::vector<int> in(THREADS), active(THREADS);
    srand(12345);
    for (int t = 0; t < THREADS; ++t) { in[t] = rand() % 2001 - 1000; active[t] = rand() % 3 != 0; }
    cudaMalloc(&d_in, THREADS * sizeof(int)); cudaMalloc(&d_active, THREADS * sizeof(int));
    cudaMalloc(&d_ref, THREADS * sizeof(int)); cudaMalloc(&d_mine, THREADS * sizeof(int));
    cudaMemcpy(d_in, in.data(), THREADS * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(d_active, active.data(), THREADS * sizeof(int), cudaMemcpyHostToDevice);
    all_groups<cg::plus<int>, hipmigrate_cg::plus<int>>("plus");
    all_groups<cg::less<int>, hipmigrate_cg::less<int>>("less");
    all_groups<cg::greater<int>, hipmigrate_cg::greater<int>>("greater");
    all_groups<cg::bit_and<int>, hipmigrate_cg::bit_and<int>>("bit_and");
    all_groups<cg::bit_or<int>, hipmigrate_cg::bit_or<int>>("bit_or");
    all_groups<cg::bit_xor<int>, hipmigrate_cg::bit_xor<int>>("bit_xor");
    cudaError_t err = cudaDeviceSynchronize();
    printf("%d cases, %d failed, CUDA: %s\n%s\n", cases, failures, cudaGetErrorString(err),
           failures == 0 && err == cudaSuccess ? "PASSED" : "FAILED");
    return failures == 0 && err == cudaSuccess ? 0 : 1;
}
