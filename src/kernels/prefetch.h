#pragma once
// Software prefetch for weight rows. A decode micro-tile reads R rows side
// by side, a block of each in turn: R short streams (a row is 1-10 KiB)
// that the hardware prefetcher learns too late, so decode stalled on
// memory at a third of the bandwidth. Each kernel asks for the same bytes
// R rows ahead, one micro-tile before it needs them. A prefetch never
// faults, so running past the last row is harmless.

#include <immintrin.h>

#include <cstddef>
#include <cstdint>

namespace ingot::kernels {

inline void prefetch_bytes(const void* p, size_t bytes) {
  const auto* c = static_cast<const char*>(p);
  for (size_t offset = 0; offset < bytes; offset += 64) _mm_prefetch(c + offset, _MM_HINT_T0);
}

// Whether a kernel streams each weight once: all the tokens fit in one
// micro-tile (decode, or a few sequences decoding together). Larger
// batches reread each tile's rows from cache, where prefetching only costs.
inline bool streams_weights_once(int64_t n_tokens, int kernel_tokens) {
  return n_tokens <= kernel_tokens;
}

// The `bytes` at `offset` into each of R rows, `ahead` bytes further on.
template <int R, class Row>
inline void prefetch_rows_ahead(const Row* const* rows, size_t ahead, size_t offset, size_t bytes) {
  for (int r = 0; r < R; ++r) {
    prefetch_bytes(reinterpret_cast<const char*>(rows[r]) + ahead + offset, bytes);
  }
}

}  // namespace ingot::kernels
