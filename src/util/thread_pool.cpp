#include "util/thread_pool.h"

#include <unistd.h>

#include <fstream>
#include <set>
#include <string>
#include <utility>

namespace ingot {
namespace {

// Long enough to cover the gap between two kernels of one forward pass,
// short enough that an idle server does not burn a core.
constexpr int kSpinIterations = 1 << 14;

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ volatile("yield");
#endif
}

constexpr uint64_t kSeatMask = 0xffffffffu;

uint32_t generation_of(uint64_t word) {
  return static_cast<uint32_t>(word >> 32);
}

uint64_t make_word(uint32_t generation, uint32_t seats) {
  return (uint64_t{generation} << 32) | seats;
}

}  // namespace

ThreadPool::ThreadPool(int n_threads) : n_threads_(n_threads < 1 ? 1 : n_threads) {
  workers_.reserve(n_threads_ - 1);
  for (int t = 1; t < n_threads_; ++t) workers_.emplace_back([this, t] { worker_loop(t); });
}

ThreadPool::~ThreadPool() {
  stopping_.store(true, std::memory_order_release);
  const uint64_t word = word_.load(std::memory_order_relaxed);
  word_.store(make_word(generation_of(word) + 1, 0), std::memory_order_release);
  word_.notify_all();
  for (auto& worker : workers_) worker.join();
}

void ThreadPool::dispatch(Trampoline fn, void* ctx, Attendance attendance) {
  if (n_threads_ == 1) {
    fn(ctx, 0, 1);
    return;
  }
  job_ = fn;
  job_ctx_ = ctx;
  finished_.store(0, std::memory_order_relaxed);
  const uint32_t generation = generation_of(word_.load(std::memory_order_relaxed)) + 1;
  const uint32_t seats = static_cast<uint32_t>(n_threads_ - 1);
  word_.store(make_word(generation, seats), std::memory_order_release);
  word_.notify_all();
  fn(ctx, 0, n_threads_);
  int joined = n_threads_ - 1;
  if (attendance == Attendance::kWhoeverArrives) {
    // The work is done (parallel_for's chunks are all taken): close the
    // job, and wait only for the workers already in it.
    const uint64_t before = word_.exchange(make_word(generation, 0), std::memory_order_acq_rel);
    joined -= static_cast<int>(before & kSeatMask);
  }
  int spins = 0;
  while (finished_.load(std::memory_order_acquire) != joined) {
    if (++spins < kSpinIterations) {
      cpu_relax();
    } else {
      std::this_thread::yield();
    }
  }
}

uint32_t ThreadPool::try_join(uint64_t word, int thread) {
  while ((word & kSeatMask) != 0) {
    if (word_.compare_exchange_weak(word, word - 1, std::memory_order_acq_rel,
                                    std::memory_order_acquire)) {
      job_(job_ctx_, thread, n_threads_);
      finished_.fetch_add(1, std::memory_order_acq_rel);
      break;
    }
  }
  return generation_of(word);
}

void ThreadPool::worker_loop(int thread) {
  uint32_t seen = 0;
  for (;;) {
    uint64_t word = word_.load(std::memory_order_acquire);
    for (int spins = 0; generation_of(word) == seen && spins < kSpinIterations; ++spins) {
      cpu_relax();
      word = word_.load(std::memory_order_acquire);
    }
    if (generation_of(word) == seen) {
      word_.wait(word, std::memory_order_acquire);
      continue;
    }
    if (stopping_.load(std::memory_order_acquire)) return;
    seen = try_join(word, thread);
  }
}

int ThreadPool::default_thread_count() {
  // Count distinct (package, core) pairs: hyperthreads share one core's
  // vector units, and matmul throughput does not grow with them.
  std::set<std::pair<std::string, std::string>> cores;
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line, package;
  while (std::getline(cpuinfo, line)) {
    auto value = [&] { return line.substr(line.find(':') + 1); };
    if (line.rfind("physical id", 0) == 0) package = value();
    if (line.rfind("core id", 0) == 0) cores.emplace(package, value());
  }
  long online = sysconf(_SC_NPROCESSORS_ONLN);
  int count = cores.empty() ? static_cast<int>(online) : static_cast<int>(cores.size());
  return count < 1 ? 1 : count;
}

}  // namespace ingot
