// CPP060's intrinsics (migrate/cpp/intrinsics_shim.h) against CUDA's, on an NVIDIA GPU: every SIMD-in-a-word function
// and the byte and halfword dot products, on the lanes' edge values (0, 1, the signed and unsigned extremes) in
// every combination and on random words. Prints one line per function (mismatches, the first one shown) and
// "N passed, M failed"; the exit status is 1 on any failure. Built by benchmarks/device/intrinsics_check.sh.
#include <cstdio>
#include <vector>

#include "intrinsics_shim.h"

#define UNARY(X) X(__vabs2) X(__vabs4) X(__vabsss2) X(__vabsss4) X(__vneg2) X(__vneg4) X(__vnegss2) X(__vnegss4)
#define BINARY(X)                                                                                                  \
  X(__vabsdiffs2) X(__vabsdiffs4) X(__vabsdiffu2) X(__vabsdiffu4) X(__vadd2) X(__vadd4) X(__vaddss2) X(__vaddss4)  \
  X(__vaddus2) X(__vaddus4) X(__vsub2) X(__vsub4) X(__vsubss2) X(__vsubss4) X(__vsubus2) X(__vsubus4)              \
  X(__vavgs2) X(__vavgs4) X(__vavgu2) X(__vavgu4) X(__vhaddu2) X(__vhaddu4) X(__vmaxs2) X(__vmaxs4) X(__vmaxu2)    \
  X(__vmaxu4) X(__vmins2) X(__vmins4) X(__vminu2) X(__vminu4) X(__vcmpeq2) X(__vcmpeq4) X(__vcmpne2) X(__vcmpne4)  \
  X(__vcmpges2) X(__vcmpges4) X(__vcmpgeu2) X(__vcmpgeu4) X(__vcmpgts2) X(__vcmpgts4) X(__vcmpgtu2) X(__vcmpgtu4)  \
  X(__vcmples2) X(__vcmples4) X(__vcmpleu2) X(__vcmpleu4) X(__vcmplts2) X(__vcmplts4) X(__vcmpltu2) X(__vcmpltu4)  \
  X(__vseteq2) X(__vseteq4) X(__vsetne2) X(__vsetne4) X(__vsetges2) X(__vsetges4) X(__vsetgeu2) X(__vsetgeu4)      \
  X(__vsetgts2) X(__vsetgts4) X(__vsetgtu2) X(__vsetgtu4) X(__vsetles2) X(__vsetles4) X(__vsetleu2) X(__vsetleu4)  \
  X(__vsetlts2) X(__vsetlts4) X(__vsetltu2) X(__vsetltu4) X(__vsads2) X(__vsads4) X(__vsadu2) X(__vsadu4)
#define TERNARY(X) X(__dp4a) X(__dp2a_lo) X(__dp2a_hi)

#define NAME(f) #f,
static const char* NAMES[] = {UNARY(NAME) BINARY(NAME) TERNARY(NAME) TERNARY(NAME)};
#define COUNT(f) +1
static const int FUNCTIONS = 0 UNARY(COUNT) BINARY(COUNT) TERNARY(COUNT) TERNARY(COUNT);

// out[2 * (f * n + i)]: CUDA's result, out[... + 1]: the shim's
__global__ void run(const unsigned* a, const unsigned* b, const unsigned* c, int n, unsigned* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned x = a[i], y = b[i], z = c[i];
  int f = 0;
  unsigned* o;
#define ONE(g) o = out + 2 * ((size_t)f++ * n + i); o[0] = ::g(x); o[1] = hipmigrate_intrinsics::g(x);
#define TWO(g) o = out + 2 * ((size_t)f++ * n + i); o[0] = ::g(x, y); o[1] = hipmigrate_intrinsics::g(x, y);
#define SIGNED3(g) o = out + 2 * ((size_t)f++ * n + i); o[0] = (unsigned)::g((int)x, (int)y, (int)z); \
  o[1] = (unsigned)hipmigrate_intrinsics::g((int)x, (int)y, (int)z);
#define UNSIGNED3(g) o = out + 2 * ((size_t)f++ * n + i); o[0] = ::g(x, y, z); o[1] = hipmigrate_intrinsics::g(x, y, z);
  UNARY(ONE) BINARY(TWO) TERNARY(SIGNED3) TERNARY(UNSIGNED3)
}

static unsigned state = 12345;
static unsigned lcg() { return state = state * 1664525u + 1013904223u; }

int main() {
  // every combination of edge bytes in the two low lanes of each width, then random words
  const unsigned edges[] = {0x00, 0x01, 0x7f, 0x80, 0x81, 0xff};
  const unsigned halves[] = {0x0000, 0x0001, 0x7fff, 0x8000, 0x8001, 0xffff, 0x00ff, 0xff00};
  std::vector<unsigned> a, b, c;
  for (unsigned p : edges)
    for (unsigned q : edges)
      for (unsigned r : edges)
        for (unsigned s : edges) {
          a.push_back(p | q << 8 | p << 16 | q << 24);
          b.push_back(r | s << 8 | s << 16 | r << 24);
          c.push_back(lcg());
        }
  for (unsigned p : halves)
    for (unsigned q : halves) {
      a.push_back(p | q << 16);
      b.push_back(q | p << 16);
      c.push_back(lcg());
    }
  for (int i = 0; i < (1 << 20); ++i) {
    a.push_back(lcg());
    b.push_back(lcg());
    c.push_back(lcg());
  }
  int n = (int)a.size();
  unsigned *da, *db, *dc, *dout;
  size_t out_size = 2 * (size_t)FUNCTIONS * n;
  cudaMalloc(&da, n * sizeof(unsigned));
  cudaMalloc(&db, n * sizeof(unsigned));
  cudaMalloc(&dc, n * sizeof(unsigned));
  cudaMalloc(&dout, out_size * sizeof(unsigned));
  cudaMemcpy(da, a.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice);
  cudaMemcpy(dc, c.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice);
  run<<<(n + 255) / 256, 256>>>(da, db, dc, n, dout);
  std::vector<unsigned> out(out_size);
  cudaError_t e = cudaMemcpy(out.data(), dout, out_size * sizeof(unsigned), cudaMemcpyDeviceToHost);
  if (e != cudaSuccess) {
    printf("CUDA error: %s\n", cudaGetErrorString(e));
    return 1;
  }
  int passed = 0, failed = 0;
  for (int f = 0; f < FUNCTIONS; ++f) {
    int bad = 0, first = -1;
    for (int i = 0; i < n; ++i) {
      const unsigned* o = &out[2 * ((size_t)f * n + i)];
      if (o[0] != o[1] && bad++ == 0) first = i;
    }
    const char* kind = f >= FUNCTIONS - 3 ? " (unsigned)" : f >= FUNCTIONS - 6 ? " (int)" : "";
    if (bad == 0) {
      printf("%-14s%-11s %d words  ok\n", NAMES[f], kind, n);
      ++passed;
    } else {
      const unsigned* o = &out[2 * ((size_t)f * n + first)];
      printf("%-14s%-11s %d of %d differ; first: a=%08x b=%08x c=%08x cuda=%08x shim=%08x\n", NAMES[f], kind, bad, n,
             a[first], b[first], c[first], o[0], o[1]);
      ++failed;
    }
  }
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
