#pragma once
// Software prefetch for weight rows. A decode micro-tile reads R rows side
// by side, a block of each in turn: R short streams (a row is 1-10 KiB)
// that the hardware prefetcher learns too late, so decode stalled on
// memory at a third of the bandwidth. Each kernel asks for the same bytes
// whole micro-tiles ahead, at least 4 KiB (one 4-row micro-tile came too
// late). A prefetch never faults, so running past the last row is
// harmless.
//
// The prefetches are non-temporal: decode reads each weight once per step,
// and NTA lines pass through without evicting the activations and the KV
// cache. On Zen 5 that lifted decode 2-8% and the decode of 4 sequences
// 2-14% (ingot bench, side by side); prefill, whose later token tiles read
// the rows again from cache, measured the same either way. Choosing the
// hint per call (T0 for prefill) cost decode more than it saved.

#include <immintrin.h>

#include <cstddef>
#include <cstdint>

namespace ingot::kernels {

inline void prefetch_bytes(const void* p, size_t bytes) {
  const auto* c = static_cast<const char*>(p);
  for (size_t offset = 0; offset < bytes; offset += 64) _mm_prefetch(c + offset, _MM_HINT_NTA);
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

// The `bytes` at `offset` into each of R rows, `ahead` bytes further on.
template <int R, class Row>
inline void prefetch_rows_ahead(const Row* const* rows, size_t ahead, size_t offset, size_t bytes) {
  for (int r = 0; r < R; ++r) {
    prefetch_bytes(reinterpret_cast<const char*>(rows[r]) + ahead + offset, bytes);
  }
}

}  // namespace ingot::kernels
