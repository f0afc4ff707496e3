#pragma once
// Activations packed once per input into the block format a weight type's
// integer dot product wants (Q8_0 blocks for the 32-element types, Q8_K
// for the K-quants, F32/F16/BF16 for float weights; kernels/activation_pack.h
// says which), plus what the SIMD kernels read beside the blocks: Q8_0/Q8_1
// block sums and, on the AVX-512 path, the interleaved layout.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kernels/element_type.h"
#include "util/thread_pool.h"

namespace ingot::kernels {

// Packs a row of n activations into a dot operand's blocks (dispatch.h
// picks one per path and type).
using PackRowFn = void (*)(const float* x, void* dst, int64_t n);
// Packed row -> the interleaved layout (kernels/interleave.h).
using InterleaveRowFn = void (*)(ElementType packed_type, const void* row, int64_t cols, void* dst);

// `n_tokens` rows of activations packed for one weight type's dot product.
class PackedActivations {
 public:
  void pack(const float* x, int64_t n_tokens, int64_t cols, ElementType weight_type,
            ThreadPool& pool);

  // Packing in pieces of kPieceCols columns (the last may be shorter), for
  // a caller that computes x inside a parallel region of its own and packs
  // each piece as it is done, instead of packing on one thread afterwards:
  // prepare once, then pack_piece every piece of every row, on any thread.
  static constexpr int64_t kPieceCols = 512;  // one interleaved group, two Q8_K blocks
  void prepare(int64_t n_tokens, int64_t cols, ElementType weight_type);
  int64_t pieces_per_row() const { return (cols_ + kPieceCols - 1) / kPieceCols; }
  void pack_piece(const float* x_row, int64_t t, int64_t piece);

  ElementType packed_type() const { return packed_type_; }
  int64_t n_tokens() const { return n_tokens_; }
  int64_t cols() const { return cols_; }
  const uint8_t* row(int64_t t) const { return buffer_.data() + t * row_stride_; }
  // Q8_0/Q8_1 packing only: the sum of the quants of each 32-element block
  // of row t. SIMD kernels feed unsigned (offset) weights to u8 x s8 dot
  // instructions and take offset * block sum back out.
  const int16_t* block_sums(int64_t t) const { return sums_.data() + t * blocks_per_row_; }
  // Q8_0 and Q8_K packing on the AVX-512 path only: row t in the interleaved layout
  // (kernels/interleave.h), or null.
  const uint8_t* interleaved_row(int64_t t) const {
    return interleaved_stride_ == 0 ? nullptr : interleaved_bytes() + t * interleaved_stride_;
  }

 private:
  // The interleaved rows start on cache lines (a group is 10 lines): the
  // kernels load every activation vector whole, and a 64-byte load across
  // two lines costs two.
  struct alignas(64) CacheLine {
    uint8_t bytes[64];
  };
  const uint8_t* interleaved_bytes() const { return interleaved_.data()->bytes; }
  uint8_t* interleaved_bytes() { return interleaved_.data()->bytes; }

  void pack_columns(const float* x_row, int64_t t, int64_t begin, int64_t end);

  ElementType packed_type_ = ElementType::kF32;
  int64_t n_tokens_ = 0;
  int64_t cols_ = 0;
  size_t row_stride_ = 0;
  std::vector<uint8_t> buffer_;  // grows, never shrinks: no allocation per token
  int64_t blocks_per_row_ = 0;
  std::vector<int16_t> sums_;  // likewise
  size_t interleaved_stride_ = 0;
  std::vector<CacheLine> interleaved_;        // likewise
  PackRowFn pack_row_ = nullptr;              // chosen by prepare
  InterleaveRowFn interleave_row_ = nullptr;  // likewise; null without interleaving
};

}  // namespace ingot::kernels
