#ifndef HIPMIGRATE_CUDA_BARRIER
#define HIPMIGRATE_CUDA_BARRIER
// hipmigrate: libcu++'s cuda::barrier, cuda::memcpy_async and cuda::pipeline (<cuda/barrier>, <cuda/pipeline>), which
// HIP lacks, in namespace hipmigrate_cuda. The barrier is a split arrive/wait barrier on atomics (arrivals count down
// to the phase's end, waiters spin on the phase); a block's pipeline keeps, for each stage, the times it was filled
// and emptied the same way; a copy is done at once by the thread (or, for a group's copy, by the group's threads
// together) before it returns, so that whatever waits for it, a barrier or a pipeline stage, finds it complete.
#include <hip/hip_runtime.h>
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace hipmigrate_cuda {
enum thread_scope { thread_scope_system = 0, thread_scope_device = 1, thread_scope_block = 2, thread_scope_thread = 3 };

template <size_t Alignment>
struct aligned_size_t {
  static constexpr size_t align = Alignment;
  size_t value;
  __host__ __device__ explicit constexpr aligned_size_t(size_t size) : value(size) {}
  __host__ __device__ constexpr operator size_t() const { return value; }
};

namespace detail {
template <thread_scope Scope>
__device__ inline void fence() {
  if (Scope == thread_scope_block) __threadfence_block();
  else if (Scope == thread_scope_system) __threadfence_system();
  else if (Scope == thread_scope_device) __threadfence();
}

template <size_t Alignment>
__host__ __device__ constexpr size_t word() {
  return Alignment % 16 == 0 ? 16 : Alignment % 8 == 0 ? 8 : Alignment % 4 == 0 ? 4 : 1;
}

// bytes [first, last) of a copy, in words of W bytes, every step-th word from the start-th
template <size_t W>
__device__ inline void copy_words(char* dst, const char* src, size_t bytes, size_t start, size_t step) {
  typedef typename std::conditional<W == 16, uint4, typename std::conditional<W == 8, uint2,
          typename std::conditional<W == 4, uint32_t, unsigned char>::type>::type>::type Word;
  for (size_t i = start; i < bytes / W; i += step)
    reinterpret_cast<Word*>(dst)[i] = reinterpret_cast<const Word*>(src)[i];
  if (start == 0)
    for (size_t i = bytes / W * W; i < bytes; ++i) dst[i] = src[i];
}

template <size_t Alignment>
__device__ inline void copy(void* dst, const void* src, size_t bytes, size_t start, size_t step) {
  copy_words<word<Alignment>()>(static_cast<char*>(dst), static_cast<const char*>(src), bytes, start, step);
}
}  // namespace detail

template <thread_scope Scope = thread_scope_system>
class barrier {
 public:
  typedef unsigned arrival_token;

  barrier() = default;
  barrier(const barrier&) = delete;
  barrier& operator=(const barrier&) = delete;

  // init(&b, expected), found by argument-dependent lookup as libcu++'s is
  friend __device__ inline void init(barrier* b, ptrdiff_t expected) {
    b->expected_ = (int)expected;
    b->pending_ = (int)expected;
    b->phase_ = 0;
  }

  __device__ arrival_token arrive(ptrdiff_t update = 1) {
    arrival_token phase = *static_cast<volatile unsigned*>(&phase_);
    detail::fence<Scope>();  // what this thread wrote before arriving, seen by those the phase's end releases
    if (atomicSub(&pending_, (int)update) == (int)update) {
      detail::fence<Scope>();  // a count arrive_and_drop lowered before its arrival
      atomicExch(&pending_, *static_cast<volatile int*>(&expected_));
      detail::fence<Scope>();
      atomicAdd(&phase_, 1u);
    }
    return phase;
  }

  __device__ void wait(arrival_token&& phase) const {
    while (*static_cast<const volatile unsigned*>(&phase_) == phase) {
    }
    detail::fence<Scope>();
  }

  __device__ void arrive_and_wait() { wait(arrive()); }

  __device__ void arrive_and_drop() {
    atomicSub(&expected_, 1);
    arrive();
  }

  static constexpr ptrdiff_t max() { return 0x7fffffff; }

 private:
  int expected_;
  int pending_;
  unsigned phase_;
};

// a thread's own pipeline (make_pipeline() with no group): its copies are complete when issued, so acquiring,
// committing, waiting and releasing have nothing to do
template <thread_scope Scope>
class pipeline;

template <>
class pipeline<thread_scope_thread> {
 public:
  __device__ void producer_acquire() {}
  __device__ void producer_commit() {}
  __device__ void consumer_wait() {}
  __device__ void consumer_release() {}
  __device__ bool quit() { return true; }
};

__device__ inline pipeline<thread_scope_thread> make_pipeline() { return pipeline<thread_scope_thread>(); }

template <uint8_t Prior>
__device__ inline void pipeline_consumer_wait_prior(pipeline<thread_scope_thread>&) {}

enum class pipeline_role { producer, consumer };

namespace detail {
// one stage's side (filled or emptied): the arrivals left in the round, and the rounds done
struct stage_count {
  int pending;
  unsigned rounds;
};

template <thread_scope Scope>
__device__ inline void arrive(stage_count* c, int expected) {
  fence<Scope>();
  if (atomicSub(&c->pending, 1) == 1) {
    atomicExch(&c->pending, expected);
    fence<Scope>();
    atomicAdd(&c->rounds, 1u);
  }
}

template <thread_scope Scope>
__device__ inline void wait_rounds(const stage_count* c, unsigned rounds) {
  while ((int)(*static_cast<const volatile unsigned*>(&c->rounds) - rounds) < 0) {
  }
  fence<Scope>();
}
}  // namespace detail

// the state a group's pipeline shares, in shared memory: who produces, who consumes, and each stage's rounds
template <thread_scope Scope, uint8_t Stages>
class pipeline_shared_state {
 public:
  pipeline_shared_state() = default;
  pipeline_shared_state(const pipeline_shared_state&) = delete;
  pipeline_shared_state& operator=(const pipeline_shared_state&) = delete;

  int producers;
  int consumers;
  detail::stage_count filled[Stages];
  detail::stage_count emptied[Stages];
};

// a group's pipeline: a producer waits until its stage was emptied as many times as it was filled, fills it and
// commits; a consumer waits until it was filled once more than emptied, reads it and releases it
template <thread_scope Scope>
class pipeline {
 public:
  __device__ pipeline(int stages, int producers, int consumers, detail::stage_count* filled,
                      detail::stage_count* emptied)
      : stages_(stages), producers_(producers), consumers_(consumers), filled_(filled), emptied_(emptied) {}
  __device__ void producer_acquire() { detail::wait_rounds<Scope>(&emptied_[head_], head_round_); }
  __device__ void producer_commit() {
    detail::arrive<Scope>(&filled_[head_], producers_);
    advance(head_, head_round_);
  }
  __device__ void consumer_wait() { detail::wait_rounds<Scope>(&filled_[tail_], tail_round_ + 1); }
  __device__ void consumer_release() {
    detail::arrive<Scope>(&emptied_[tail_], consumers_);
    advance(tail_, tail_round_);
  }

 private:
  __device__ void advance(int& stage, unsigned& round) {
    if (++stage == stages_) {
      stage = 0;
      ++round;
    }
  }
  int stages_, producers_, consumers_;
  detail::stage_count *filled_, *emptied_;
  int head_ = 0, tail_ = 0;
  unsigned head_round_ = 0, tail_round_ = 0;
};

namespace detail {
// counts the group's producers and consumers (each thread says what it is) and starts every stage empty
template <class Group, thread_scope Scope, uint8_t Stages>
__device__ inline pipeline<Scope> shared_pipeline(const Group& group, pipeline_shared_state<Scope, Stages>* state,
                                                  bool producer, bool consumer) {
  if (group.thread_rank() == 0) state->producers = state->consumers = 0;
  group.sync();
  if (producer) atomicAdd(&state->producers, 1);
  if (consumer) atomicAdd(&state->consumers, 1);
  group.sync();
  if (group.thread_rank() == 0)
    for (int s = 0; s < Stages; ++s) {
      state->filled[s] = stage_count{state->producers, 0u};
      state->emptied[s] = stage_count{state->consumers, 0u};
    }
  group.sync();
  return pipeline<Scope>(Stages, state->producers, state->consumers, state->filled, state->emptied);
}
}  // namespace detail

template <class Group, thread_scope Scope, uint8_t Stages>
__device__ inline pipeline<Scope> make_pipeline(const Group& group, pipeline_shared_state<Scope, Stages>* state) {
  return detail::shared_pipeline(group, state, true, true);
}
template <class Group, thread_scope Scope, uint8_t Stages>
__device__ inline pipeline<Scope> make_pipeline(const Group& group, pipeline_shared_state<Scope, Stages>* state,
                                                pipeline_role role) {
  return detail::shared_pipeline(group, state, role == pipeline_role::producer, role == pipeline_role::consumer);
}

template <size_t Alignment, thread_scope Scope>
__device__ inline void memcpy_async(void* dst, const void* src, aligned_size_t<Alignment> size, barrier<Scope>&) {
  detail::copy<Alignment>(dst, src, size.value, 0, 1);
}
template <thread_scope Scope>
__device__ inline void memcpy_async(void* dst, const void* src, size_t size, barrier<Scope>&) {
  detail::copy<1>(dst, src, size, 0, 1);
}
template <size_t Alignment, thread_scope Scope>
__device__ inline void memcpy_async(void* dst, const void* src, aligned_size_t<Alignment> size, pipeline<Scope>&) {
  detail::copy<Alignment>(dst, src, size.value, 0, 1);
}
template <thread_scope Scope>
__device__ inline void memcpy_async(void* dst, const void* src, size_t size, pipeline<Scope>&) {
  detail::copy<1>(dst, src, size, 0, 1);
}

// a group's copy: its threads share the words
template <class Group, size_t Alignment, thread_scope Scope>
__device__ inline void memcpy_async(const Group& group, void* dst, const void* src, aligned_size_t<Alignment> size,
                                    barrier<Scope>&) {
  detail::copy<Alignment>(dst, src, size.value, group.thread_rank(), group.size());
}
template <class Group, thread_scope Scope>
__device__ inline void memcpy_async(const Group& group, void* dst, const void* src, size_t size, barrier<Scope>&) {
  detail::copy<1>(dst, src, size, group.thread_rank(), group.size());
}
}  // namespace hipmigrate_cuda
#endif  // HIPMIGRATE_CUDA_BARRIER
