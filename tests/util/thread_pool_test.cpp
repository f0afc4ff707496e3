#include "util/thread_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <numeric>
#include <vector>

namespace ingot {
namespace {

TEST(ThreadPool, RunOnAllGivesEachThreadItsIndex) {
  ThreadPool pool(4);
  std::vector<std::atomic<int>> seen(4);
  for (int round = 0; round < 1000; ++round) {
    pool.run_on_all([&](int thread, int n) {
      EXPECT_EQ(n, 4);
      seen[thread].fetch_add(1);
    });
  }
  for (auto& count : seen) EXPECT_EQ(count.load(), 1000);
}

TEST(ThreadPool, ParallelForCoversEveryIndexOnce) {
  ThreadPool pool(3);
  for (int64_t n : {1, 7, 64, 1001}) {
    std::vector<std::atomic<int>> hits(n);
    pool.parallel_for(n, 5, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) hits[i].fetch_add(1);
    });
    for (auto& h : hits) EXPECT_EQ(h.load(), 1);
  }
}

TEST(ThreadPool, SingleThreadRunsInline) {
  ThreadPool pool(1);
  int64_t sum = 0;
  pool.parallel_for(100, 10, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) sum += i;
  });
  EXPECT_EQ(sum, 4950);
}

TEST(ThreadPool, DefaultThreadCountIsPositive) { EXPECT_GE(ThreadPool::default_thread_count(), 1); }

}  // namespace
}  // namespace ingot
