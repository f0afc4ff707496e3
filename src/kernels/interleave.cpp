#include "kernels/interleave.h"

#include <cstring>

#include "kernels/block_formats.h"
#include "kernels/half.h"

namespace ingot::kernels {
namespace {

constexpr size_t kScaleBytes = kGroupBlocks * sizeof(uint16_t);

void interleave_q4_0(const BlockQ4_0& block, int lane, uint16_t* scales, uint8_t* quants) {
  scales[lane] = block.d;
  for (int k = 0; k < 4; ++k) std::memcpy(quants + k * 64 + lane * 4, block.qs + 4 * k, 4);
}

void interleave_q8_0(const BlockQ8_0& block, int lane, uint16_t* scales, uint8_t* quants) {
  scales[lane] = block.d;
  for (int j = 0; j < 8; ++j) {
    for (int e = 0; e < 4; ++e) {
      quants[j * 64 + lane * 4 + e] = static_cast<uint8_t>(block.qs[4 * j + e]) ^ 0x80;
    }
  }
}

}  // namespace

bool can_interleave(ElementType type) {
  return type == ElementType::kQ4_0 || type == ElementType::kQ8_0;
}

size_t interleaved_row_bytes(ElementType type, int64_t cols) {
  return static_cast<size_t>(interleaved_groups(cols)) * kGroupBlocks *
         element_type_info(type).bytes_per_block;
}

void interleave_weight_row(ElementType type, const void* src, int64_t cols, void* dst) {
  const int64_t n_blocks = cols / kQK;
  const size_t group_bytes = kGroupBlocks * element_type_info(type).bytes_per_block;
  auto* out = static_cast<uint8_t*>(dst);
  std::memset(out, 0, interleaved_row_bytes(type, cols));
  for (int64_t b = 0; b < n_blocks; ++b) {
    uint8_t* group = out + (b / kGroupBlocks) * group_bytes;
    uint16_t scales[kGroupBlocks];
    std::memcpy(scales, group, kScaleBytes);
    const int lane = static_cast<int>(b % kGroupBlocks);
    if (type == ElementType::kQ4_0) {
      BlockQ4_0 block;
      std::memcpy(&block, static_cast<const uint8_t*>(src) + b * sizeof(block), sizeof(block));
      interleave_q4_0(block, lane, scales, group + kScaleBytes);
    } else {
      BlockQ8_0 block;
      std::memcpy(&block, static_cast<const uint8_t*>(src) + b * sizeof(block), sizeof(block));
      interleave_q8_0(block, lane, scales, group + kScaleBytes);
    }
    std::memcpy(group, scales, kScaleBytes);
  }
}

void interleave_activation_row(const void* q8_0_row, int64_t cols, void* dst) {
  const int64_t n_blocks = cols / kQK;
  auto* out = static_cast<uint8_t*>(dst);
  std::memset(out, 0, interleaved_groups(cols) * kActivationGroupBytes);
  for (int64_t b = 0; b < n_blocks; ++b) {
    BlockQ8_0 block;
    std::memcpy(&block, static_cast<const uint8_t*>(q8_0_row) + b * sizeof(block), sizeof(block));
    uint8_t* group = out + (b / kGroupBlocks) * kActivationGroupBytes;
    const int lane = static_cast<int>(b % kGroupBlocks);
    const float d = f16_to_f32(block.d);
    int32_t neg_sum = 0;
    for (int e = 0; e < kQK; ++e) neg_sum -= block.qs[e];
    std::memcpy(group + lane * 4, &d, 4);
    std::memcpy(group + 64 + lane * 4, &neg_sum, 4);
    uint8_t* quants = group + 128;
    for (int j = 0; j < 8; ++j) std::memcpy(quants + j * 64 + lane * 4, block.qs + 4 * j, 4);
  }
}

}  // namespace ingot::kernels
