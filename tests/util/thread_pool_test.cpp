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

// parallel_for closes each job to workers that arrive after its chunks are
// gone; many short jobs in a row, mixed with run_on_all, exercise that
// hand-over (a seat claimed for a closed or a later job).
TEST(ThreadPool, ShortJobsInARowEachRunOnce) {
  ThreadPool pool(3);
  int64_t total = 0;
  std::vector<std::atomic<int>> seen(3);
  for (int round = 0; round < 4000; ++round) {
    std::atomic<int64_t> sum{0};
    pool.parallel_for(3, 1, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) sum.fetch_add(i + 1);
    });
    total += sum.load();
    if (round % 7 == 0) pool.run_on_all([&](int thread, int) { seen[thread].fetch_add(1); });
  }
  EXPECT_EQ(total, 4000 * 6);
  for (auto& count : seen) EXPECT_EQ(count.load(), (4000 + 6) / 7);
}

TEST(ThreadPool, SingleThreadRunsInline) {
  ThreadPool pool(1);
  int64_t sum = 0;
  pool.parallel_for(100, 10, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) sum += i;
  });
  EXPECT_EQ(sum, 4950);
}

TEST(ThreadPool, DefaultThreadCountIsPositive) {
  EXPECT_GE(ThreadPool::default_thread_count(), 1);
}

}  // namespace
}  // namespace ingot
