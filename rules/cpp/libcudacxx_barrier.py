"""libcu++'s `cuda::barrier`, `cuda::memcpy_async` and `cuda::pipeline` (`<cuda/barrier>`, `<cuda/pipeline>`), which
no ROCm release ships: written in a block.

Kernels since Ampere stage tiles through shared memory with asynchronous copies: `cuda::memcpy_async` completes on a
`cuda::barrier` (split into `arrive()` and `wait(token)`), on a thread's `cuda::pipeline` (`make_pipeline()`,
`producer_commit()`, `pipeline_consumer_wait_prior<N>()`) or on a block's, whose stages producers fill and consumers
empty (`make_pipeline(block, &shared_state, role)`, `producer_acquire()`, `consumer_wait()`, `consumer_release()`). HIP has no asynchronous global-to-shared copy and no
libcu++. Where a file uses nothing of libcu++ but these, the first `<cuda/barrier>` or `<cuda/pipeline>` include
becomes a block (namespace `hipmigrate_cuda`), the others go, and every `cuda::` name is qualified with the
namespace:
- the barrier is a split arrive/wait barrier on atomics, for the count `init(&bar, n)` gives it, at the scope its
  type names (`arrive_and_wait`, `arrive_and_drop` too);
- a copy is made by the thread before `memcpy_async` returns (a group's copy by the group's threads together), in
  words as wide as the `cuda::aligned_size_t` allows, so what waits for it finds it complete: the double buffering
  stays correct, without the overlap of copy and compute the hardware gave on NVIDIA;
- the per-thread pipeline's stages have nothing left to wait for; a block's pipeline counts, for each stage, the
  times its producers filled it and its consumers emptied it (atomics in the shared state), a producer waiting
  until its stage was emptied as often as filled and a consumer until it was filled once more.
Waiting spins, as libcu++'s does: a producer and a consumer that share a 64-lane wavefront and wait for each other
in diverging branches would stall where NVIDIA's independent thread scheduling lets them go on (HAZ004's class).
A file that uses more of libcu++ (`cuda::std::`, `cuda::atomic`, `cuda::atomic_ref`) is left to HAZ016, which reports
it.
"""
from migrate.cpp.cuda_barrier import MARKER, NAMESPACE, block, plan
from migrate.cpp.includes import whole_line
from migrate.model import Edit
from migrate.rule import CppRule, Invalid, Valid

REDUCE = ("#include <cuda/barrier>\n"
          "__global__ void sum(const float* in, float* out) {\n"
          "    __shared__ cuda::barrier<cuda::thread_scope_block> bar;\n"
          "    if (threadIdx.x == 0) init(&bar, blockDim.x);\n"
          "    __syncthreads();\n"
          "    auto token = bar.arrive();\n"
          "    bar.wait(static_cast<cuda::barrier<cuda::thread_scope_block>::arrival_token&&>(token));\n"
          "    out[threadIdx.x] = in[threadIdx.x];\n}\n")
STAGE = ("#include <cuda/pipeline>\n"
         "__global__ void stage(const float4* in, float4* out) {\n"
         "    __shared__ float4 tile[64];\n"
         "    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();\n"
         "    pipe.producer_acquire();\n"
         "    cuda::memcpy_async(&tile[threadIdx.x], &in[threadIdx.x], cuda::aligned_size_t<16>(16), pipe);\n"
         "    pipe.producer_commit();\n"
         "    cuda::pipeline_consumer_wait_prior<0>(pipe);\n"
         "    out[threadIdx.x] = tile[threadIdx.x];\n}\n")
MESSAGE = ("libcu++ ships with no ROCm release: hipmigrate_cuda::{name} stands for cuda::{name} (a barrier on atomics, "
           "copies made when issued)")


def _fixed(text: str) -> str:
    lines = text.split("\n", 1)
    return block() + "\n" + lines[1].replace("cuda::", "hipmigrate_cuda::")


class LibcudacxxBarrier(CppRule):
    code = "CPP068"
    examples = [
        Invalid(REDUCE, line=3, fixed=_fixed(REDUCE), message=MESSAGE.format(name="barrier")),
        Invalid(STAGE, line=4, fixed=_fixed(STAGE), message=MESSAGE.format(name="pipeline")),
        # more of libcu++ than the block has: HAZ016's
        Valid("#include <cuda/barrier>\n#include <cuda/std/atomic>\n"
              "__global__ void k(cuda::std::atomic<int>* a) { __shared__ cuda::barrier<cuda::thread_scope_block> b; }\n"),
        Valid("#include <cuda/atomic>\n"
              "__global__ void k(int* a) { cuda::atomic_ref<int, cuda::thread_scope_device> r(*a); }\n"),
        # already the block's, and a project's own namespace
        Valid("__global__ void k() { __shared__ hipmigrate_cuda::barrier<hipmigrate_cuda::thread_scope_block> b; }\n"),
        Valid("namespace at { namespace cuda { int barrier; } }\nint f() { return at::cuda::barrier; }\n"),
    ]

    def check(self, ctx):
        found = plan(ctx)
        if found is None:
            return
        lines, uses = found
        edits = []
        for i, m in enumerate(lines):
            start, end = whole_line(ctx.data, m)
            text = block(ctx.newline) + ctx.newline if i == 0 and MARKER.encode() not in ctx.data else ""
            edits.append(Edit(start, end, text))
        for m in uses:
            name = m.group(2).decode()
            yield self.finding(ctx, m.start(1), m.end(2), MESSAGE.format(name=name),
                               edits=[*edits, Edit(m.start(1), m.end(1), f"{NAMESPACE}::")],
                               title=f"Use {NAMESPACE}::{name}")
            edits = []
        if edits:  # an include with nothing of it used
            m = lines[0]
            yield self.finding(ctx, m.start(), m.end(2), f"libcu++ ships with no ROCm release: the block "
                               f"{NAMESPACE} stands for <{m.group(2).decode()}>", edits=edits,
                               title=f"Write the {NAMESPACE} block")
