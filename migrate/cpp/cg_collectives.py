"""What CUDA's cooperative-groups collectives (cooperative_groups/reduce.h and scan.h: cg::reduce, cg::inclusive_scan,
cg::exclusive_scan and the cg::plus/less/greater/bit_* operators) become: HIP has none of them (5.2 to 6.4), so rule
CPP023 puts this implementation in their place, in a namespace of its own, once per file that included those headers.

It works on any group whose lanes shuffle (thread_block_tile of any size, coalesced_group) and whatever the
wavefront size, 64 on CDNA or 32 on RDNA: it shuffles by the group's own rank and size, never by a warp width.
- reduce: each lane adds the value `offset` ranks above it, for offsets 1, 2, 4, ...; rank 0 then holds the whole
  group's result, which it hands to every lane (as CUDA's reduce returns it to every thread).
- inclusive_scan: Hillis-Steele, each lane adding the partial result `offset` ranks below it.
- exclusive_scan: the inclusive result of the rank below; rank 0 gets a value-initialised T (for plus, 0).
Values are shuffled by the group where T is arithmetic, else word by word (CUDA's collectives take any trivially
copyable T, a struct of a sum and a maximum in llm.c; HIP's tile shuffles take arithmetic types only).
"""
from __future__ import annotations

NAMESPACE = "hipmigrate_cg"
MARKER = "HIPMIGRATE_CG_COLLECTIVES"
FUNCTIONS = ("reduce", "inclusive_scan", "exclusive_scan")
OPERATORS = ("plus", "less", "greater", "bit_and", "bit_or", "bit_xor")
ASYNC = ("reduce_update_async", "reduce_store_async")  # no counterpart: reported


def block(newline: str = "\n") -> str:
    """The implementation, guarded so that a file that gets it twice (through a header) compiles."""
    lines = f"""#ifndef {MARKER}
#define {MARKER}
#include <type_traits>
// cooperative_groups/reduce.h and scan.h have no HIP counterpart: hipmigrate wrote these in their place.
// They shuffle by the group's own rank and size, so they hold for 64-lane (CDNA) and 32-lane (RDNA) wavefronts;
// calls inside are qualified, so that no cooperative_groups function of the same name is found by its arguments.
namespace {NAMESPACE} {{
template <class T> struct plus {{ __device__ T operator()(const T& a, const T& b) const {{ return a + b; }} }};
template <class T> struct less {{ __device__ T operator()(const T& a, const T& b) const {{ return b < a ? b : a; }} }};
template <class T> struct greater {{ __device__ T operator()(const T& a, const T& b) const {{ return a < b ? b : a; }} }};
template <class T> struct bit_and {{ __device__ T operator()(const T& a, const T& b) const {{ return a & b; }} }};
template <class T> struct bit_or {{ __device__ T operator()(const T& a, const T& b) const {{ return a | b; }} }};
template <class T> struct bit_xor {{ __device__ T operator()(const T& a, const T& b) const {{ return a ^ b; }} }};
template <bool Arithmetic> struct shuffle;
template <> struct shuffle<true> {{
    template <class Group, class T> __device__ static T down(const Group& g, const T& v, unsigned int d) {{ return g.shfl_down(v, d); }}
    template <class Group, class T> __device__ static T up(const Group& g, const T& v, unsigned int d) {{ return g.shfl_up(v, d); }}
    template <class Group, class T> __device__ static T from(const Group& g, const T& v, unsigned int r) {{ return g.shfl(v, r); }}
}};
template <> struct shuffle<false> {{  // any trivially copyable T, one 32-bit word at a time
    template <class T, class Move> __device__ static T words(const T& v, Move move) {{
        unsigned int w[(sizeof(T) + 3) / 4] = {{}};
        __builtin_memcpy(w, &v, sizeof(T));
        for (unsigned int i = 0; i < (sizeof(T) + 3) / 4; ++i) w[i] = move(w[i]);
        T out = v;
        __builtin_memcpy(&out, w, sizeof(T));
        return out;
    }}
    template <class Group, class T> __device__ static T down(const Group& g, const T& v, unsigned int d) {{
        return words(v, [&](unsigned int x) {{ return g.shfl_down(x, d); }});
    }}
    template <class Group, class T> __device__ static T up(const Group& g, const T& v, unsigned int d) {{
        return words(v, [&](unsigned int x) {{ return g.shfl_up(x, d); }});
    }}
    template <class Group, class T> __device__ static T from(const Group& g, const T& v, unsigned int r) {{
        return words(v, [&](unsigned int x) {{ return g.shfl(x, r); }});
    }}
}};
template <class Group, class T, class Op>
__device__ T reduce(const Group& group, T value, Op op) {{
    const unsigned int rank = group.thread_rank(), size = group.size();
    for (unsigned int offset = 1; offset < size; offset *= 2) {{
        T other = {NAMESPACE}::shuffle<std::is_arithmetic<T>::value>::down(group, value, offset);
        if (rank + offset < size) value = op(value, other);
    }}
    return {NAMESPACE}::shuffle<std::is_arithmetic<T>::value>::from(group, value, 0);
}}
template <class Group, class T, class Op>
__device__ T inclusive_scan(const Group& group, T value, Op op) {{
    const unsigned int rank = group.thread_rank(), size = group.size();
    for (unsigned int offset = 1; offset < size; offset *= 2) {{
        T other = {NAMESPACE}::shuffle<std::is_arithmetic<T>::value>::up(group, value, offset);
        if (rank >= offset) value = op(other, value);
    }}
    return value;
}}
template <class Group, class T>
__device__ T inclusive_scan(const Group& group, T value) {{ return {NAMESPACE}::inclusive_scan(group, value, {NAMESPACE}::plus<T>()); }}
template <class Group, class T, class Op>
__device__ T exclusive_scan(const Group& group, T value, Op op) {{
    T below = {NAMESPACE}::shuffle<std::is_arithmetic<T>::value>::up(group, {NAMESPACE}::inclusive_scan(group, value, op), 1);
    return group.thread_rank() == 0 ? T() : below;
}}
template <class Group, class T>
__device__ T exclusive_scan(const Group& group, T value) {{ return {NAMESPACE}::exclusive_scan(group, value, {NAMESPACE}::plus<T>()); }}
}}  // namespace {NAMESPACE}
#endif  // {MARKER}"""
    return lines.replace("\n", newline)
