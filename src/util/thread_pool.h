#pragma once
// A persistent pool of compute threads for the kernels. A forward pass
// issues hundreds of parallel regions per token, so dispatch must cost
// microseconds: workers spin briefly on an atomic generation counter and
// only then sleep (std::atomic::wait, a futex), and the calling thread
// works as thread 0 instead of waiting idle.
//
// On a machine with more runnable threads than cores a worker can be off
// the CPU for a whole scheduler slice. parallel_for therefore never waits
// for a worker that has not started: the caller takes the remaining chunks
// itself and then closes the job to latecomers, so it waits only for
// workers already inside it.

#include <atomic>
#include <cstdint>
#include <thread>
#include <type_traits>
#include <vector>

namespace ingot {

class ThreadPool {
 public:
  // n_threads counts the calling thread: ThreadPool(1) runs everything inline.
  explicit ThreadPool(int n_threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int size() const { return n_threads_; }

  // Runs fn(thread_index, n_threads) once on every thread, the caller
  // included, and returns when all have finished. Static partitioning by
  // thread index keeps each thread on the same rows every call (cache reuse).
  template <typename Fn>
  void run_on_all(Fn&& fn) {
    using F = std::remove_reference_t<Fn>;
    dispatch([](void* ctx, int thread, int n) { (*static_cast<F*>(ctx))(thread, n); },
             const_cast<void*>(static_cast<const void*>(&fn)), Attendance::kEveryThread);
  }

  // Runs fn(begin, end) over [0, n) in chunks of `grain`, handed out
  // dynamically so that uneven chunks balance across threads.
  template <typename Fn>
  void parallel_for(int64_t n, int64_t grain, Fn&& fn) {
    if (n <= 0) return;
    if (grain < 1) grain = 1;
    if (n_threads_ == 1 || n <= grain) {
      fn(int64_t{0}, n);
      return;
    }
    ClaimCounter next;
    auto take_chunks = [&](int, int) {
      for (;;) {
        int64_t begin = next.value.fetch_add(grain, std::memory_order_relaxed);
        if (begin >= n) break;
        fn(begin, begin + grain < n ? begin + grain : n);
      }
    };
    using F = decltype(take_chunks);
    dispatch([](void* ctx, int thread, int n) { (*static_cast<F*>(ctx))(thread, n); }, &take_chunks,
             Attendance::kWhoeverArrives);
  }

  // A counter that threads claim work from, alone on its cache line: every
  // claim moves the line between cores (~200 ns here), and sharing it with
  // data the caller writes or that every thread reads would move it more.
  struct alignas(64) ClaimCounter {
    std::atomic<int64_t> value{0};
  };

  // The number of threads worth using on this machine: one per physical core.
  static int default_thread_count();

 private:
  using Trampoline = void (*)(void* ctx, int thread, int n_threads);
  enum class Attendance { kEveryThread, kWhoeverArrives };

  void dispatch(Trampoline fn, void* ctx, Attendance attendance);
  void worker_loop(int thread);
  // Runs the published job if a seat is left; returns the generation seen.
  uint32_t try_join(uint64_t word, int thread);

  int n_threads_;
  std::vector<std::thread> workers_;
  Trampoline job_ = nullptr;
  void* job_ctx_ = nullptr;
  // The job's generation in the high 32 bits, its unclaimed worker seats in
  // the low 32: one word, so a seat is claimed for exactly one job.
  std::atomic<uint64_t> word_{0};
  std::atomic<int> finished_{0};  // workers done with the current job
  std::atomic<bool> stopping_{false};
};

}  // namespace ingot
