"""CUDA's `atomicAdd` on 16-bit floating-point values (`__half`, `__half2`, `__nv_bfloat16`, `__nv_bfloat162`) as HIP
code can write it: HIP declares these only as `unsafeAtomicAdd` (hardware packed atomics, which do not work on
fine-grained or host memory), so CPP018 calls `hipmigrate_atomic_add` instead, defined here as a compare-and-swap on
the aligned 32-bit word that holds the value: correct on every kind of memory, as CUDA's is, and returning the old
value. The block is written once per file, at file scope before the first call, behind a guard macro so that a
header and the file including it can both carry it."""
from __future__ import annotations

MARKER = "HIPMIGRATE_ATOMIC_ADD_16"
NAME = "hipmigrate_atomic_add"


def block(newline: str = "\n") -> str:
    text = f"""#ifndef {MARKER}
#define {MARKER}
// hipmigrate CPP018: atomicAdd on a 16-bit float type, which HIP has only as unsafeAtomicAdd (not on fine-grained
// memory): a compare-and-swap on the 32-bit word that holds it, on any memory, returning the old value
template <typename T>
__device__ inline T {NAME}(T* address, T value) {{
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "{NAME}: a 16-bit value or a pair of them");
  unsigned long long at = reinterpret_cast<unsigned long long>(address);
  unsigned int* word = reinterpret_cast<unsigned int*>(at & ~3ull);
  unsigned int shift = sizeof(T) == 2 ? (unsigned int)(at & 2ull) * 8u : 0u;
  unsigned int mask = sizeof(T) == 2 ? 0xffffu << shift : 0xffffffffu;
  unsigned int old = *word, assumed;
  T before;
  do {{
    assumed = old;
    unsigned int bits = (assumed & mask) >> shift;
    __builtin_memcpy(&before, &bits, sizeof(T));
    T sum = before + value;
    unsigned int next = 0;
    __builtin_memcpy(&next, &sum, sizeof(T));
    old = atomicCAS(word, assumed, (assumed & ~mask) | ((next << shift) & mask));
  }} while (assumed != old);
  return before;
}}
#endif"""
    return text.replace("\n", newline)
