#include "kernels/activation_pack.h"

#include <algorithm>
#include <cassert>
#include <cmath>

#include "kernels/block_formats.h"
#include "kernels/half.h"
#include "kernels/quantize.h"

namespace ingot::kernels {
namespace {

// One Q8_0/Q8_1 block's quants and scale; returns the sum of the quants.
int pack_q8_block(const float* x, int8_t* qs, uint16_t* d_out, float* d_f32) {
  float amax = 0.0f;
  for (int j = 0; j < kQK; ++j) amax = std::max(amax, std::fabs(x[j]));
  const float d = amax / 127.f;
  const float id = amax != 0.0f ? 127.f / amax : 0.0f;
  *d_out = f32_to_f16(d);
  *d_f32 = d;
  int sum = 0;
  for (int j = 0; j < kQK; ++j) {
    qs[j] = static_cast<int8_t>(std::nearbyint(x[j] * id));
    sum += qs[j];
  }
  return sum;
}

void pack_q8_0(const float* x, BlockQ8_0* y, int64_t nb) {
  float d;
  for (int64_t i = 0; i < nb; ++i) pack_q8_block(x + i * kQK, y[i].qs, &y[i].d, &d);
}

void pack_q8_1(const float* x, BlockQ8_1* y, int64_t nb) {
  for (int64_t i = 0; i < nb; ++i) {
    float d;
    const int sum = pack_q8_block(x + i * kQK, y[i].qs, &y[i].d, &d);
    y[i].s = f32_to_f16(d * static_cast<float>(sum));
  }
}

}  // namespace

ElementType dot_operand_type(ElementType weight_type) {
  switch (weight_type) {
    case ElementType::kQ4_0:
    case ElementType::kQ5_0:
    case ElementType::kQ8_0:
    case ElementType::kQ8_1:
    case ElementType::kIQ4_NL:
    case ElementType::kMXFP4:
      return ElementType::kQ8_0;
    case ElementType::kQ4_1:
    case ElementType::kQ5_1:
      return ElementType::kQ8_1;
    case ElementType::kQ2_K:
    case ElementType::kQ3_K:
    case ElementType::kQ4_K:
    case ElementType::kQ5_K:
    case ElementType::kQ6_K:
    case ElementType::kQ8_K:
    case ElementType::kIQ4_XS:
      return ElementType::kQ8_K;
    case ElementType::kF16:
      return ElementType::kF16;
    case ElementType::kBF16:
      return ElementType::kBF16;
    default:
      return ElementType::kF32;
  }
}

void pack_activation_row(ElementType packed_type, const float* x, void* dst, int64_t n) {
  switch (packed_type) {
    case ElementType::kQ8_0:
      return pack_q8_0(x, static_cast<BlockQ8_0*>(dst), n / kQK);
    case ElementType::kQ8_1:
      return pack_q8_1(x, static_cast<BlockQ8_1*>(dst), n / kQK);
    case ElementType::kQ8_K:
    case ElementType::kF32:
    case ElementType::kF16:
    case ElementType::kBF16:
      return quantize_row(packed_type, x, dst, n);
    default:
      assert(false && "pack_activation_row: not a packed activation type");
  }
}

}  // namespace ingot::kernels
