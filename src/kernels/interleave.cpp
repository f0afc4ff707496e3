#include "kernels/interleave.h"

#include <cstring>

#include "kernels/block_formats.h"
#include "kernels/half.h"

namespace ingot::kernels {
namespace {

template <class Block>
Block block_at(const void* row, int64_t b) {
  Block block;
  std::memcpy(&block, static_cast<const uint8_t*>(row) + b * sizeof(Block), sizeof(Block));
  return block;
}

void set_f16(uint8_t* dst, int index, uint16_t value) {
  std::memcpy(dst + index * sizeof(uint16_t), &value, sizeof(value));
}

void interleave_nibbles(const uint8_t* qs, int lane, uint8_t* quants) {
  for (int k = 0; k < 4; ++k) std::memcpy(quants + k * 64 + lane * 4, qs + 4 * k, 4);
}

// Q4_0 and IQ4_NL: an F16 scale and 16 bytes of nibbles.
template <class Block>
void interleave_nibble_block(const Block& block, int lane, uint8_t* header, uint8_t* quants) {
  set_f16(header, lane, block.d);
  interleave_nibbles(block.qs, lane, quants);
}

void interleave_mxfp4(const BlockMXFP4& block, int lane, uint8_t* header, uint8_t* quants) {
  const float scale = mxfp4_scale(block.e);
  std::memcpy(header + lane * sizeof(float), &scale, sizeof(scale));
  interleave_nibbles(block.qs, lane, quants);
}

void interleave_q8_0(const BlockQ8_0& block, int lane, uint8_t* header, uint8_t* quants) {
  set_f16(header, lane, block.d);
  for (int j = 0; j < 8; ++j) {
    for (int e = 0; e < 4; ++e) {
      quants[j * 64 + lane * 4 + e] = static_cast<uint8_t>(block.qs[4 * j + e]) ^ 0x80;
    }
  }
}

// Super-block `half` (0 or 1) of a group: lanes 8 * half .. 8 * half + 7.
void interleave_iq4_xs(const BlockIQ4_XS& block, int half, uint8_t* header, uint8_t* quants) {
  set_f16(header, half, block.d);
  for (int sub = 0; sub < kSubBlocksPerSuperBlock; ++sub) {
    const int lane = kSubBlocksPerSuperBlock * half + sub;
    header[4 + lane] = static_cast<uint8_t>(static_cast<int8_t>(iq4_xs_scale(block, sub)));
    interleave_nibbles(block.qs + 16 * sub, lane, quants);
  }
}

// Super-block `half` (0 or 1) of a group: lanes 8 * half .. 8 * half + 7.
void interleave_q4_k(const BlockQ4_K& block, int half, uint8_t* header, uint8_t* quants) {
  set_f16(header, half, block.d);
  set_f16(header, 2 + half, block.dmin);
  uint8_t* scales = header + 8;
  uint8_t* mins = header + 24;
  for (int sub = 0; sub < kSubBlocksPerSuperBlock; ++sub) {
    const int lane = kSubBlocksPerSuperBlock * half + sub;
    const ScaleMin sm = k4_scale_min(block.scales, sub);
    scales[lane] = sm.scale;
    mins[lane] = sm.min;
    // Sub-block `sub` is one nibble of a 32-byte run of qs (see BlockQ4_K).
    const uint8_t* run = block.qs + 32 * (sub / 2);
    const int shift = 4 * (sub % 2);
    for (int k = 0; k < 4; ++k) {
      for (int e = 0; e < 4; ++e) {
        const int low = (run[4 * k + e] >> shift) & 0xf;
        const int high = (run[16 + 4 * k + e] >> shift) & 0xf;
        quants[k * 64 + lane * 4 + e] = static_cast<uint8_t>(low | high << 4);
      }
    }
  }
}

// Super-block `half` (0 or 1) of a group: lanes 8 * half .. 8 * half + 7
// of its quants and header.
void interleave_q6_k(const BlockQ6_K& block, int half, uint8_t* header, uint8_t* quants) {
  set_f16(header, half, block.d);
  for (int chunk = 0; chunk < kQK_K / kQK; ++chunk) {
    const int lane = (kQK_K / kQK) * half + chunk;
    for (int sub = 0; sub < 2; ++sub) {
      header[4 + 16 * sub + lane] = static_cast<uint8_t>(block.scales[2 * chunk + sub]);
      // Element 4k + e of this 16-element sub-block.
      const auto value = [&](int k, int e) {
        return q6_k_value(block, kQK * chunk + 16 * sub + 4 * k + e);
      };
      uint8_t* abc = quants + 3 * 64 * sub + lane * 4;
      for (int e = 0; e < 4; ++e) {
        for (int k = 0; k < 3; ++k) {
          abc[64 * k + e] = static_cast<uint8_t>(value(k, e) | ((value(3, e) >> (2 * k)) & 3) << 6);
        }
      }
    }
  }
}

// Where group g of an interleaved row at `row` keeps its header and quants.
struct GroupPlace {
  uint8_t* header;
  uint8_t* quants;
};

GroupPlace group_place(const GroupLayout& layout, uint8_t* row, int64_t cols, int64_t g) {
  if (layout.headers_apart) {
    return {row + headers_offset(layout, cols) + g * layout.header_bytes,
            row + g * layout.quant_bytes};
  }
  uint8_t* group = row + g * (layout.header_bytes + layout.quant_bytes);
  return {group, group + layout.header_bytes};
}

// One activation lane: scale d, the quants `qs` (32), their negated sum.
void interleave_activation_block(float d, const int8_t* qs, int lane, uint8_t* group) {
  int32_t neg_sum = 0;
  int32_t neg_half_sum = 0;
  for (int e = 0; e < kQK; ++e) {
    neg_sum -= qs[e];
    if (e < kQK / 2) neg_half_sum -= qs[e];
  }
  std::memcpy(group + lane * 4, &d, 4);
  std::memcpy(group + 64 + lane * 4, &neg_sum, 4);
  std::memcpy(group + kActivationHalfSumsOffset + lane * 4, &neg_half_sum, 4);
  uint8_t* quants = group + 128;
  for (int j = 0; j < 8; ++j) std::memcpy(quants + j * 64 + lane * 4, qs + 4 * j, 4);
}

}  // namespace

size_t interleaved_row_bytes(ElementType type, int64_t cols) {
  const GroupLayout layout = group_layout(type);
  const size_t bytes =
      static_cast<size_t>(interleaved_groups(cols)) * (layout.header_bytes + layout.quant_bytes);
  // Rows with their headers apart start on cache lines, so that their
  // quant vectors do.
  if (layout.headers_apart) return (bytes + 63) / 64 * 64;
  return bytes;
}

void interleave_weight_row(ElementType type, const void* src, int64_t cols, void* dst) {
  auto* out = static_cast<uint8_t*>(dst);
  const GroupLayout layout = group_layout(type);
  std::memset(out, 0, interleaved_row_bytes(type, cols));
  if (type == ElementType::kQ4_K || type == ElementType::kQ6_K || type == ElementType::kIQ4_XS) {
    // A group is two super-blocks.
    for (int64_t b = 0; b < cols / kQK_K; ++b) {
      const GroupPlace place = group_place(layout, out, cols, b / 2);
      const int half = static_cast<int>(b % 2);
      if (type == ElementType::kQ4_K) {
        interleave_q4_k(block_at<BlockQ4_K>(src, b), half, place.header, place.quants);
      } else if (type == ElementType::kIQ4_XS) {
        interleave_iq4_xs(block_at<BlockIQ4_XS>(src, b), half, place.header, place.quants);
      } else {
        interleave_q6_k(block_at<BlockQ6_K>(src, b), half, place.header, place.quants);
      }
    }
    return;
  }
  for (int64_t b = 0; b < cols / kQK; ++b) {
    const GroupPlace place = group_place(layout, out, cols, b / kGroupBlocks);
    const int lane = static_cast<int>(b % kGroupBlocks);
    switch (type) {
      case ElementType::kQ4_0:
        interleave_nibble_block(block_at<BlockQ4_0>(src, b), lane, place.header, place.quants);
        break;
      case ElementType::kIQ4_NL:
        interleave_nibble_block(block_at<BlockIQ4_NL>(src, b), lane, place.header, place.quants);
        break;
      case ElementType::kMXFP4:
        interleave_mxfp4(block_at<BlockMXFP4>(src, b), lane, place.header, place.quants);
        break;
      default:
        interleave_q8_0(block_at<BlockQ8_0>(src, b), lane, place.header, place.quants);
    }
  }
}

void interleave_activation_row(ElementType packed_type, const void* row, int64_t cols, void* dst) {
  auto* out = static_cast<uint8_t*>(dst);
  std::memset(out, 0, interleaved_groups(cols) * kActivationGroupBytes);
  for (int64_t b = 0; b < cols / kQK; ++b) {
    uint8_t* group = out + (b / kGroupBlocks) * kActivationGroupBytes;
    const int lane = static_cast<int>(b % kGroupBlocks);
    if (packed_type == ElementType::kQ8_K) {
      const auto* super_block =
          reinterpret_cast<const BlockQ8_K*>(row) + b / kSubBlocksPerSuperBlock;
      interleave_activation_block(
          super_block->d, super_block->qs + kQK * (b % kSubBlocksPerSuperBlock), lane, group);
    } else {
      const auto block = block_at<BlockQ8_0>(row, b);
      interleave_activation_block(f16_to_f32(block.d), block.qs, lane, group);
    }
  }
}

}  // namespace ingot::kernels
