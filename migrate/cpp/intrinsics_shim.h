#ifndef HIPMIGRATE_INTRINSICS
#define HIPMIGRATE_INTRINSICS
// hipmigrate: CUDA intrinsics that HIP's headers lack, written in plain integer arithmetic in namespace
// hipmigrate_intrinsics with CUDA's names and results: the SIMD-in-a-word functions (__vadd4, __vmaxs2, ...: each
// 8- or 16-bit lane of an unsigned int on its own, wrapping or saturating as CUDA's do), the dot products of bytes
// and halfwords (__dp4a, __dp2a_lo, __dp2a_hi), __double2half (one rounding, to the nearest even) and the
// system-scope atomicInc_system and atomicDec_system.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>

namespace hipmigrate_intrinsics {
namespace detail {
struct Limits {
  int lo, hi, top;  // a lane's signed range, and its unsigned maximum
};
__host__ __device__ inline int clamp(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }
// f(signed a, signed b, unsigned a, unsigned b, limits) for each lane of Bits bits, its result's low Bits bits kept
template <int Bits, class F>
__host__ __device__ inline unsigned int lanes(unsigned int a, unsigned int b, F f) {
  const unsigned int mask = (1u << Bits) - 1;
  const Limits limits = {-(1 << (Bits - 1)), (1 << (Bits - 1)) - 1, (1 << Bits) - 1};
  unsigned int r = 0;
  for (int i = 0; i < 32; i += Bits) {
    unsigned int ua = (a >> i) & mask, ub = (b >> i) & mask;
    int sa = (int)(ua << (32 - Bits)) >> (32 - Bits), sb = (int)(ub << (32 - Bits)) >> (32 - Bits);
    r |= ((unsigned int)f(sa, sb, ua, ub, limits) & mask) << i;
  }
  return r;
}
template <int Bits, class F>
__host__ __device__ inline unsigned int sum(unsigned int a, unsigned int b, F f) {
  unsigned int total = 0;
  lanes<Bits>(a, b, [&](int sa, int sb, unsigned int ua, unsigned int ub, Limits) {
    total += (unsigned int)f(sa, sb, ua, ub);
    return 0;
  });
  return total;
}
}  // namespace detail

#define HIPMIGRATE_LANE_ARGUMENTS                                                                                \
  []([[maybe_unused]] int sa, [[maybe_unused]] int sb, [[maybe_unused]] unsigned int ua,                       \
     [[maybe_unused]] unsigned int ub, [[maybe_unused]] detail::Limits l)
#define HIPMIGRATE_LANES(name, expr)                                                                             \
  __host__ __device__ inline unsigned int name##2(unsigned int a, unsigned int b) {                              \
    return detail::lanes<16>(a, b, HIPMIGRATE_LANE_ARGUMENTS -> int {                                         \
      return expr;                                                                                                 \
    });                                                                                                            \
  }                                                                                                                \
  __host__ __device__ inline unsigned int name##4(unsigned int a, unsigned int b) {                              \
    return detail::lanes<8>(a, b, HIPMIGRATE_LANE_ARGUMENTS -> int {                                          \
      return expr;                                                                                                 \
    });                                                                                                            \
  }
#define HIPMIGRATE_LANE(name, expr)                                                                   \
  HIPMIGRATE_LANES(name##_pair, expr)                                                                 \
  __host__ __device__ inline unsigned int name##2(unsigned int a) { return name##_pair2(a, 0u); }   \
  __host__ __device__ inline unsigned int name##4(unsigned int a) { return name##_pair4(a, 0u); }

HIPMIGRATE_LANE(__vabs, sa < 0 ? -sa : sa);
HIPMIGRATE_LANE(__vabsss, detail::clamp(sa < 0 ? -sa : sa, l.lo, l.hi));
HIPMIGRATE_LANE(__vneg, -sa);
HIPMIGRATE_LANE(__vnegss, detail::clamp(-sa, l.lo, l.hi));
HIPMIGRATE_LANES(__vabsdiffs, sa > sb ? sa - sb : sb - sa);
HIPMIGRATE_LANES(__vabsdiffu, (int)(ua > ub ? ua - ub : ub - ua));
HIPMIGRATE_LANES(__vadd, (int)(ua + ub));
HIPMIGRATE_LANES(__vaddss, detail::clamp(sa + sb, l.lo, l.hi));
HIPMIGRATE_LANES(__vaddus, detail::clamp((int)(ua + ub), 0, l.top));
HIPMIGRATE_LANES(__vsub, (int)(ua - ub));
HIPMIGRATE_LANES(__vsubss, detail::clamp(sa - sb, l.lo, l.hi));
HIPMIGRATE_LANES(__vsubus, ua > ub ? (int)(ua - ub) : 0);
HIPMIGRATE_LANES(__vavgs, sa + sb < 0 ? (sa + sb) >> 1 : (sa + sb + 1) >> 1);  // halves away from zero
HIPMIGRATE_LANES(__vavgu, (int)((ua + ub + 1) >> 1));
HIPMIGRATE_LANES(__vhaddu, (int)((ua + ub) >> 1));
HIPMIGRATE_LANES(__vmaxs, sa > sb ? sa : sb);
HIPMIGRATE_LANES(__vmaxu, (int)(ua > ub ? ua : ub));
HIPMIGRATE_LANES(__vmins, sa < sb ? sa : sb);
HIPMIGRATE_LANES(__vminu, (int)(ua < ub ? ua : ub));
// comparisons: __vcmp* gives a lane of ones where true, __vset* a lane of 1
HIPMIGRATE_LANES(__vcmpeq, ua == ub ? -1 : 0);
HIPMIGRATE_LANES(__vcmpne, ua != ub ? -1 : 0);
HIPMIGRATE_LANES(__vcmpges, sa >= sb ? -1 : 0);
HIPMIGRATE_LANES(__vcmpgeu, ua >= ub ? -1 : 0);
HIPMIGRATE_LANES(__vcmpgts, sa > sb ? -1 : 0);
HIPMIGRATE_LANES(__vcmpgtu, ua > ub ? -1 : 0);
HIPMIGRATE_LANES(__vcmples, sa <= sb ? -1 : 0);
HIPMIGRATE_LANES(__vcmpleu, ua <= ub ? -1 : 0);
HIPMIGRATE_LANES(__vcmplts, sa < sb ? -1 : 0);
HIPMIGRATE_LANES(__vcmpltu, ua < ub ? -1 : 0);
HIPMIGRATE_LANES(__vseteq, ua == ub);
HIPMIGRATE_LANES(__vsetne, ua != ub);
HIPMIGRATE_LANES(__vsetges, sa >= sb);
HIPMIGRATE_LANES(__vsetgeu, ua >= ub);
HIPMIGRATE_LANES(__vsetgts, sa > sb);
HIPMIGRATE_LANES(__vsetgtu, ua > ub);
HIPMIGRATE_LANES(__vsetles, sa <= sb);
HIPMIGRATE_LANES(__vsetleu, ua <= ub);
HIPMIGRATE_LANES(__vsetlts, sa < sb);
HIPMIGRATE_LANES(__vsetltu, ua < ub);
#undef HIPMIGRATE_LANE
#undef HIPMIGRATE_LANES
#undef HIPMIGRATE_LANE_ARGUMENTS

// sums of absolute differences of the lanes
__host__ __device__ inline unsigned int __vsads2(unsigned int a, unsigned int b) {
  return detail::sum<16>(a, b, [](int sa, int sb, unsigned int, unsigned int) { return sa > sb ? sa - sb : sb - sa; });
}
__host__ __device__ inline unsigned int __vsads4(unsigned int a, unsigned int b) {
  return detail::sum<8>(a, b, [](int sa, int sb, unsigned int, unsigned int) { return sa > sb ? sa - sb : sb - sa; });
}
__host__ __device__ inline unsigned int __vsadu2(unsigned int a, unsigned int b) {
  return detail::sum<16>(a, b, [](int, int, unsigned int ua, unsigned int ub) { return ua > ub ? ua - ub : ub - ua; });
}
__host__ __device__ inline unsigned int __vsadu4(unsigned int a, unsigned int b) {
  return detail::sum<8>(a, b, [](int, int, unsigned int ua, unsigned int ub) { return ua > ub ? ua - ub : ub - ua; });
}

// dot products: four bytes of a by four bytes of b; two halfwords of a by the low (lo) or high (hi) two bytes of b
__host__ __device__ inline int __dp4a(int a, int b, int c) {
  return c + (int)(signed char)a * (signed char)b + (int)(signed char)(a >> 8) * (signed char)(b >> 8) +
         (int)(signed char)(a >> 16) * (signed char)(b >> 16) + (int)(signed char)(a >> 24) * (signed char)(b >> 24);
}
__host__ __device__ inline unsigned int __dp4a(unsigned int a, unsigned int b, unsigned int c) {
  return c + (a & 0xff) * (b & 0xff) + (a >> 8 & 0xff) * (b >> 8 & 0xff) + (a >> 16 & 0xff) * (b >> 16 & 0xff) +
         (a >> 24) * (b >> 24);
}
__host__ __device__ inline int __dp4a(char4 a, char4 b, int c) {
  return c + a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
}
__host__ __device__ inline unsigned int __dp4a(uchar4 a, uchar4 b, unsigned int c) {
  return c + (unsigned int)a.x * b.x + (unsigned int)a.y * b.y + (unsigned int)a.z * b.z + (unsigned int)a.w * b.w;
}
__host__ __device__ inline int __dp2a_lo(int a, int b, int c) {
  return c + (int)(short)a * (signed char)b + (int)(short)(a >> 16) * (signed char)(b >> 8);
}
__host__ __device__ inline int __dp2a_hi(int a, int b, int c) {
  return c + (int)(short)a * (signed char)(b >> 16) + (int)(short)(a >> 16) * (signed char)(b >> 24);
}
__host__ __device__ inline unsigned int __dp2a_lo(unsigned int a, unsigned int b, unsigned int c) {
  return c + (a & 0xffff) * (b & 0xff) + (a >> 16) * (b >> 8 & 0xff);
}
__host__ __device__ inline unsigned int __dp2a_hi(unsigned int a, unsigned int b, unsigned int c) {
  return c + (a & 0xffff) * (b >> 16 & 0xff) + (a >> 16) * (b >> 24);
}
__host__ __device__ inline int __dp2a_lo(short2 a, char4 b, int c) { return c + a.x * b.x + a.y * b.y; }
__host__ __device__ inline int __dp2a_hi(short2 a, char4 b, int c) { return c + a.x * b.z + a.y * b.w; }
__host__ __device__ inline unsigned int __dp2a_lo(ushort2 a, uchar4 b, unsigned int c) {
  return c + (unsigned int)a.x * b.x + (unsigned int)a.y * b.y;
}
__host__ __device__ inline unsigned int __dp2a_hi(ushort2 a, uchar4 b, unsigned int c) {
  return c + (unsigned int)a.x * b.z + (unsigned int)a.y * b.w;
}

__host__ __device__ inline __half __double2half(double x) { return __half(static_cast<_Float16>(x)); }

// wrapping increment and decrement at system scope, as HIP's atomicInc and atomicDec are at device scope
__device__ inline unsigned int atomicInc_system(unsigned int* p, unsigned int v) {
  return __builtin_amdgcn_atomic_inc32(p, v, __ATOMIC_RELAXED, "");
}
__device__ inline unsigned int atomicDec_system(unsigned int* p, unsigned int v) {
  return __builtin_amdgcn_atomic_dec32(p, v, __ATOMIC_RELAXED, "");
}

}  // namespace hipmigrate_intrinsics
#endif  // HIPMIGRATE_INTRINSICS
