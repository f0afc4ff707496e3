#include "kernels/packed_activations.h"

#include <algorithm>
#include <cassert>

#include "kernels/activation_pack.h"
#include "kernels/interleave.h"
#include "kernels/kernel_table.h"

namespace ingot::kernels {
namespace {

// Q8_0 and Q8_1 blocks both start with their F16 scale(s) and end with the
// 32 quants: the quants are the last 32 bytes of each block.
void sum_block_quants(const uint8_t* row, size_t block_bytes, int64_t n_blocks, int16_t* sums) {
  for (int64_t b = 0; b < n_blocks; ++b) {
    const auto* qs = reinterpret_cast<const int8_t*>(row + (b + 1) * block_bytes - 32);
    int sum = 0;
    for (int j = 0; j < 32; ++j) sum += qs[j];
    sums[b] = static_cast<int16_t>(sum);
  }
}

}  // namespace

// A piece starts an interleaved group and a Q8_K block.
static_assert(PackedActivations::kPieceCols == kGroupBlocks * kQK);

void PackedActivations::pack(const float* x, int64_t n_tokens, int64_t cols,
                             ElementType weight_type, ThreadPool& pool) {
  prepare(n_tokens, cols, weight_type);
  pool.parallel_for(n_tokens, 4, [&](int64_t begin, int64_t end) {
    for (int64_t t = begin; t < end; ++t) pack_columns(x + t * cols, t, 0, cols);
  });
}

void PackedActivations::prepare(int64_t n_tokens, int64_t cols, ElementType weight_type) {
  packed_type_ = dot_operand_type(weight_type);
  n_tokens_ = n_tokens;
  cols_ = cols;
  const auto stride = row_bytes(packed_type_, cols);
  assert(stride.has_value() && "cols must be a whole number of the packed type's blocks");
  row_stride_ = stride.value_or(0);
  const size_t needed = row_stride_ * static_cast<size_t>(n_tokens);
  if (buffer_.size() < needed) buffer_.resize(needed);
  const bool with_sums = packed_type_ == ElementType::kQ8_0 || packed_type_ == ElementType::kQ8_1;
  blocks_per_row_ = with_sums ? cols / 32 : 0;
  const size_t sums_needed = static_cast<size_t>(blocks_per_row_ * n_tokens);
  if (sums_.size() < sums_needed) sums_.resize(sums_needed);
  const KernelTable& kernels = active_kernels();
  pack_row_ = kernels.pack_row(packed_type_);
  interleave_row_ = kernels.interleave_row_for(packed_type_);
  interleaved_stride_ =
      interleave_row_ != nullptr ? interleaved_groups(cols) * kActivationGroupBytes : 0;
  static_assert(kActivationGroupBytes % sizeof(CacheLine) == 0);
  const size_t interleaved_lines =
      interleaved_stride_ / sizeof(CacheLine) * static_cast<size_t>(n_tokens);
  if (interleaved_.size() < interleaved_lines) interleaved_.resize(interleaved_lines);
}

void PackedActivations::pack_piece(const float* x_row, int64_t t, int64_t piece) {
  const int64_t begin = piece * kPieceCols;
  pack_columns(x_row, t, begin, std::min(begin + kPieceCols, cols_));
}

void PackedActivations::pack_columns(const float* x_row, int64_t t, int64_t begin, int64_t end) {
  const ElementTypeInfo& info = element_type_info(packed_type_);
  uint8_t* out = buffer_.data() + t * row_stride_ + begin / info.block_size * info.bytes_per_block;
  pack_row_(x_row + begin, out, end - begin);
  if (blocks_per_row_ > 0) {
    sum_block_quants(out, info.bytes_per_block, (end - begin) / 32,
                     sums_.data() + t * blocks_per_row_ + begin / 32);
  }
  if (interleave_row_ != nullptr) {
    interleave_row_(
        packed_type_, out, end - begin,
        interleaved_bytes() + t * interleaved_stride_ + begin / kPieceCols * kActivationGroupBytes);
  }
}

}  // namespace ingot::kernels
