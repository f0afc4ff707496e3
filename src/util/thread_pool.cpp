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
#endif
}

}  // namespace

ThreadPool::ThreadPool(int n_threads) : n_threads_(n_threads < 1 ? 1 : n_threads) {
  workers_.reserve(n_threads_ - 1);
  for (int t = 1; t < n_threads_; ++t) workers_.emplace_back([this, t] { worker_loop(t); });
}

ThreadPool::~ThreadPool() {
  stopping_.store(true, std::memory_order_release);
  generation_.fetch_add(1, std::memory_order_acq_rel);
  generation_.notify_all();
  for (auto& worker : workers_) worker.join();
}

void ThreadPool::dispatch(Trampoline fn, void* ctx) {
  if (n_threads_ == 1) {
    fn(ctx, 0, 1);
    return;
  }
  job_ = fn;
  job_ctx_ = ctx;
  pending_.store(n_threads_ - 1, std::memory_order_relaxed);
  generation_.fetch_add(1, std::memory_order_acq_rel);
  generation_.notify_all();
  fn(ctx, 0, n_threads_);
  int spins = 0;
  while (pending_.load(std::memory_order_acquire) != 0) {
    if (++spins < kSpinIterations) {
      cpu_relax();
    } else {
      std::this_thread::yield();
    }
  }
}

void ThreadPool::worker_loop(int thread) {
  uint64_t seen = 0;
  for (;;) {
    uint64_t current = generation_.load(std::memory_order_acquire);
    for (int spins = 0; current == seen && spins < kSpinIterations; ++spins) {
      cpu_relax();
      current = generation_.load(std::memory_order_acquire);
    }
    if (current == seen) {
      generation_.wait(seen, std::memory_order_acquire);
      continue;
    }
    seen = current;
    if (stopping_.load(std::memory_order_acquire)) return;
    job_(job_ctx_, thread, n_threads_);
    pending_.fetch_sub(1, std::memory_order_acq_rel);
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
