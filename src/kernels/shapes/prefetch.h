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
// whose offsets spilled to the stack) was slower both in the micro-tile
// and in decode.
//
// The prefetches are non-temporal: decode reads each weight once per step,
// and NTA lines pass through without evicting the activations and the KV
// cache, which made decode faster; prefill, whose later token tiles read
// the rows again from cache, is the same either way. T0 and T1 were
// slower for every shape.

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace ingot::kernels {

inline constexpr size_t kCacheLine = 64;

// Locality 0 is the non-temporal hint: prefetchnta on x86, a streaming
// prefetch (PLDL1STRM) on ARM.
inline void prefetch_line(const void* p) {
  __builtin_prefetch(p, 0, 0);
}

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
  for (size_t offset = 0; offset < bytes; offset += kCacheLine) prefetch_line(c + offset);
}

// Row by row: the `bytes` at `offset` into each of R rows, `ahead` bytes
// further on. The float kernels prefetch this way, which measured faster
// for them than the span: their rows are several times longer than the
// quantized types' for the same columns, and the span asks for a later
// row's first lines only late in the tile.
template <int R, class Row>
inline void prefetch_rows_ahead(const Row* const* rows, size_t ahead, size_t offset, size_t bytes) {
  for (int r = 0; r < R; ++r) {
    prefetch_bytes(reinterpret_cast<const char*>(rows[r]) + ahead + offset, bytes);
  }
}

// The prefetches of one micro-tile: step(i), once per step of its loop over
// the columns, asks for the i-th share of its part of the span ahead.
class TilePrefetch {
 public:
  // A micro-tile of `rows` rows from row0, row_stride bytes apart, whose
  // loop takes `steps` steps, over tokens [t0, t0 + tokens) of the n_tokens
  // its matmul multiplies.
  //
  // A few sequences decoded together (n_tokens <= 4) read the rows in one
  // pass per micro-tile of tokens; each pass asks for the part of the span
  // its tokens are of all n_tokens (2 + 2 tokens: halves; 3 + 1: three
  // quarters and one). Memory then stays busy through every pass, where a
  // second pass that reads only from cache left it idle. Larger batches
  // (prefill) prefetch on the first pass only.
  TilePrefetch(const void* row0, int rows, size_t row_stride, int64_t steps, int64_t t0, int tokens,
               int64_t n_tokens) {
    constexpr int64_t kFewSequences = 4;
    const size_t tile = rows * row_stride;
    size_t part_begin = 0;
    size_t part_end = tile;
    if (n_tokens <= kFewSequences) {
      const auto share_of = [&](int64_t t) {
        return tile * static_cast<size_t>(std::min(t, n_tokens)) / static_cast<size_t>(n_tokens);
      };
      part_begin = share_of(t0);
      part_end = share_of(t0 + tokens);
    } else if (!first_pass_over_rows(t0)) {
      return;
    }
    if (steps <= 0) return;
    share_ = (part_end - part_begin) / static_cast<size_t>(steps);
    span_ = static_cast<const char*>(row0) + prefetch_distance(rows, row_stride) + part_begin;
  }

  // The bytes step(i) asks for: each line whose start falls in them, once.
  const char* share_begin(int64_t i) const { return span_ + i * share_; }
  const char* share_end(int64_t i) const { return share_begin(i) + share_; }

  void step(int64_t i) const {
    if (share_ == 0) return;
    const char* begin = share_begin(i);
    const auto start = reinterpret_cast<uintptr_t>(begin);
    const char* line = begin + ((kCacheLine - start % kCacheLine) % kCacheLine);
    for (; line < share_end(i); line += kCacheLine) prefetch_line(line);
  }

 private:
  const char* span_ = nullptr;
  size_t share_ = 0;  // 0: no prefetching
};

}  // namespace ingot::kernels
