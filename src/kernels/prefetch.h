#pragma once
// Software prefetch for weight rows. A decode micro-tile reads R rows side
// by side, a block of each in turn: R short streams (a row is 1-10 KiB)
// that the hardware prefetcher learns too late, so decode stalled on
// memory at a third of the bandwidth. Each micro-tile asks for the rows of
// the micro-tile whole tiles ahead of it, at least 4 KiB (one 4-row
// micro-tile came too late). A prefetch never faults, so running past the
// last row is harmless.
//
// Rows are consecutive, so those R rows are one span, asked for in equal
// shares over the micro-tile's steps: one stream for the hardware
// prefetcher and one pointer in the loop. Asking row by row (R streams,
// whose offsets spilled to the stack) cost the 4-token Q4_0 micro-tile
// ~15% in L1 and decode 15-20% on qwen2.5-0.5b Q4_0 (ingot bench, side by
// side).
//
// The prefetches are non-temporal: decode reads each weight once per step,
// and NTA lines pass through without evicting the activations and the KV
// cache. On Zen 5 that lifted decode 2-8% and the decode of 4 sequences
// 2-14%; prefill, whose later token tiles read the rows again from cache,
// measured the same either way. T0 and T1 were slower for every shape.

#include <immintrin.h>

#include <cstddef>
#include <cstdint>

namespace ingot::kernels {

inline constexpr size_t kCacheLine = 64;

// Whether a micro-tile is the first to read its rows: the one at token 0
// (matmul gives a thread all the token tiles of its row tile in turn, so
// later micro-tiles find the rows in cache, where prefetching only costs).
inline bool first_pass_over_rows(int64_t t0) {
  return t0 == 0;
}

// How far ahead to prefetch: whole micro-tiles of R rows, at least
// kMinPrefetchBytes, so the lines arrive before they are read.
constexpr size_t kMinPrefetchBytes = 4096;

inline size_t prefetch_distance(int rows, size_t row_stride) {
  const size_t tile = rows * row_stride;
  return (kMinPrefetchBytes + tile - 1) / tile * tile;
}

inline void prefetch_bytes(const void* p, size_t bytes) {
  const auto* c = static_cast<const char*>(p);
  for (size_t offset = 0; offset < bytes; offset += kCacheLine)
    _mm_prefetch(c + offset, _MM_HINT_NTA);
}

// Row by row: the `bytes` at `offset` into each of R rows, `ahead` bytes
// further on. The float kernels prefetch this way: F16 decode on
// qwen2.5-0.5b ran at 64 t/s with the span against 74-77 row by row
// (median of 5 side-by-side rounds each). Their rows are 2-4x longer than
// the quantized types' for the same columns, and the span asks for a later
// row's first lines only late in the tile.
template <int R, class Row>
inline void prefetch_rows_ahead(const Row* const* rows, size_t ahead, size_t offset, size_t bytes) {
  for (int r = 0; r < R; ++r) {
    prefetch_bytes(reinterpret_cast<const char*>(rows[r]) + ahead + offset, bytes);
  }
}

// The prefetches of one micro-tile: step(i), once per step of its loop over
// the columns, asks for the i-th share of the span ahead.
class TilePrefetch {
 public:
  // A micro-tile of `rows` rows from row0, row_stride bytes apart, whose
  // loop takes `steps` steps, at token t0 of the n_tokens its matmul
  // multiplies, tokens_per_pass at a time.
  //
  // A few sequences decoded together (n_tokens <= 4) read the rows in one
  // or two passes, each of which asks for its part of the span: memory then
  // stays busy through both, where a second pass that reads only from cache
  // left it idle. Larger batches (prefill) prefetch on the first pass only.
  TilePrefetch(const void* row0, int rows, size_t row_stride, int64_t steps, int64_t t0,
               int tokens_per_pass, int64_t n_tokens) {
    constexpr int64_t kFewSequences = 4;
    int64_t passes = 1;
    int64_t pass = 0;
    if (n_tokens <= kFewSequences) {
      passes = (n_tokens + tokens_per_pass - 1) / tokens_per_pass;
      pass = t0 / tokens_per_pass;
    } else if (!first_pass_over_rows(t0)) {
      return;
    }
    if (steps <= 0 || passes <= 0) return;
    const size_t tile = rows * row_stride;
    const size_t part = tile / passes;
    share_ = part / steps;
    span_ = static_cast<const char*>(row0) + prefetch_distance(rows, row_stride) + pass * part;
  }

  // Each line whose start falls in the i-th share, once.
  void step(int64_t i) const {
    if (share_ == 0) return;
    const char* begin = span_ + i * share_;
    const char* end = begin + share_;
    const auto start = reinterpret_cast<uintptr_t>(begin);
    const char* line = begin + ((kCacheLine - start % kCacheLine) % kCacheLine);
    for (; line < end; line += kCacheLine) _mm_prefetch(line, _MM_HINT_NTA);
  }

 private:
  const char* span_ = nullptr;
  size_t share_ = 0;  // 0: no prefetching
};

}  // namespace ingot::kernels
