#include "kernels/shapes/prefetch.h"

#include <gtest/gtest.h>

#include <vector>

namespace ingot::kernels {
namespace {

// The micro-tiles of one row tile, as run_tile walks 1-4 tokens: their
// shares together cover the next micro-tile's rows, each byte once (up to
// the rounding of a share, under one byte per step).
void expect_passes_cover_the_span(int64_t n_tokens, const std::vector<int>& passes) {
  const int rows = 6;
  const size_t stride = 576;  // qwen2.5's 896 columns of Q4_0, interleaved
  const int64_t steps = 2;
  const std::vector<char> matrix(prefetch_distance(rows, stride) + 2 * rows * stride);
  const char* base = matrix.data();
  const char* span = base + prefetch_distance(rows, stride);
  const char* covered = span;
  int64_t t0 = 0;
  for (int tokens : passes) {
    const TilePrefetch prefetch(base, rows, stride, steps, t0, tokens, n_tokens);
    for (int64_t i = 0; i < steps; ++i) {
      EXPECT_GE(prefetch.share_begin(i), covered) << "tokens from " << t0 << ", step " << i;
      EXPECT_LE(prefetch.share_begin(i) - covered, steps) << "a gap before tokens from " << t0;
      covered = prefetch.share_end(i);
    }
    t0 += tokens;
  }
  EXPECT_LE(span + rows * stride - covered, static_cast<ptrdiff_t>(steps * passes.size()));
  EXPECT_LE(covered, span + rows * stride);
}

TEST(TilePrefetch, EveryPassOfAFewTokensAsksForItsPart) {
  expect_passes_cover_the_span(1, {1});
  expect_passes_cover_the_span(2, {2});
  expect_passes_cover_the_span(3, {2, 1});
  expect_passes_cover_the_span(4, {2, 2});
  // Rows past the 6-row micro-tiles: 4 x 3, then 4 x 1.
  expect_passes_cover_the_span(4, {3, 1});
}

TEST(TilePrefetch, LargeBatchesPrefetchOnTheFirstPassOnly) {
  const std::vector<char> matrix(4 * 4096);
  const TilePrefetch first(matrix.data(), 4, 1024, 8, 0, 4, 64);
  EXPECT_EQ(first.share_end(0) - first.share_begin(0), 4 * 1024 / 8);
  const TilePrefetch later(matrix.data(), 4, 1024, 8, 4, 4, 64);
  EXPECT_EQ(later.share_end(0), later.share_begin(0));
}

}  // namespace
}  // namespace ingot::kernels
