// The 32-element block formats and Q8_K; the other K-quants are in
// quantize_k.cpp.
#include "kernels/quantize.h"

#include <algorithm>
#include <cassert>
#include <cfloat>
#include <cmath>
#include <cstring>

#include "kernels/block_formats.h"
#include "kernels/half.h"
#include "kernels/quantize_k.h"
#include "kernels/quantize_math.h"
#include "kernels/quantize_nonlinear.h"

namespace ingot::kernels {
namespace {

void quantize_f16(const float* x, uint16_t* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] = f32_to_f16(x[i]);
}

void quantize_bf16(const float* x, uint16_t* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] = f32_to_bf16(x[i]);
}

float abs_max(const float* x, int n) {
  float amax = 0.0f;
  for (int j = 0; j < n; ++j) amax = std::max(amax, std::fabs(x[j]));
  return amax;
}

// The element of largest magnitude, with its sign (the first one on ties).
float signed_abs_max(const float* x, int n) {
  float amax = 0.0f, max = 0.0f;
  for (int j = 0; j < n; ++j) {
    if (amax < std::fabs(x[j])) {
      amax = std::fabs(x[j]);
      max = x[j];
    }
  }
  return max;
}

void min_max(const float* x, int n, float& min, float& max) {
  min = FLT_MAX;
  max = -FLT_MAX;
  for (int j = 0; j < n; ++j) {
    min = std::min(min, x[j]);
    max = std::max(max, x[j]);
  }
}

void quantize_q8_0(const float* x, BlockQ8_0* y, int64_t nb) {
  for (int64_t i = 0; i < nb; ++i, x += kQK) {
    const float d = abs_max(x, kQK) / 127;
    const float id = d != 0.0f ? 1.0f / d : 0.0f;
    y[i].d = f32_to_f16(d);
    for (int j = 0; j < kQK; ++j) y[i].qs[j] = static_cast<int8_t>(std::round(x[j] * id));
  }
}

void quantize_q8_1(const float* x, BlockQ8_1* y, int64_t nb) {
  for (int64_t i = 0; i < nb; ++i, x += kQK) {
    const float d = abs_max(x, kQK) / 127;
    const float id = d != 0.0f ? 1.0f / d : 0.0f;
    y[i].d = f32_to_f16(d);
    int sum = 0;
    for (int j = 0; j < kQK; ++j) {
      y[i].qs[j] = static_cast<int8_t>(std::round(x[j] * id));
      sum += y[i].qs[j];
    }
    y[i].s = f32_to_f16(static_cast<float>(sum) * d);
  }
}

// Q4_0: d = max / -8 with max the signed extreme, so the extreme maps to
// q = 0 and the others to min(15, trunc(x/d + 8.5)).
void quantize_q4_0(const float* x, BlockQ4_0* y, int64_t nb) {
  for (int64_t i = 0; i < nb; ++i, x += kQK) {
    const float d = signed_abs_max(x, kQK) / -8;
    const float id = d != 0.0f ? 1.0f / d : 0.0f;
    y[i].d = f32_to_f16(d);
    for (int j = 0; j < kQK / 2; ++j) {
      const int q0 = std::min(15, static_cast<int>(static_cast<int8_t>(x[j] * id + 8.5f)));
      const int q1 = std::min(15, static_cast<int>(static_cast<int8_t>(x[j + 16] * id + 8.5f)));
      y[i].qs[j] = static_cast<uint8_t>(q0 | (q1 << 4));
    }
  }
}

void quantize_q4_1(const float* x, BlockQ4_1* y, int64_t nb) {
  for (int64_t i = 0; i < nb; ++i, x += kQK) {
    float min, max;
    min_max(x, kQK, min, max);
    const float d = (max - min) / 15;
    const float id = d != 0.0f ? 1.0f / d : 0.0f;
    y[i].d = f32_to_f16(d);
    y[i].m = f32_to_f16(min);
    for (int j = 0; j < kQK / 2; ++j) {
      const int q0 = std::min(15, static_cast<int>(static_cast<int8_t>((x[j] - min) * id + 0.5f)));
      const int q1 =
          std::min(15, static_cast<int>(static_cast<int8_t>((x[j + 16] - min) * id + 0.5f)));
      y[i].qs[j] = static_cast<uint8_t>(q0 | (q1 << 4));
    }
  }
}

// Packs 32 five-bit values: low nibbles into qs, fifth bits into qh.
void pack_q5(const uint8_t q[kQK], uint8_t qs[kQK / 2], uint8_t qh_bytes[4]) {
  uint32_t qh = 0;
  for (int j = 0; j < kQK / 2; ++j) {
    qs[j] = static_cast<uint8_t>((q[j] & 0xf) | ((q[j + 16] & 0xf) << 4));
    qh |= static_cast<uint32_t>((q[j] >> 4) & 1) << j;
    qh |= static_cast<uint32_t>((q[j + 16] >> 4) & 1) << (j + 16);
  }
  std::memcpy(qh_bytes, &qh, 4);
}

void quantize_q5_0(const float* x, BlockQ5_0* y, int64_t nb) {
  for (int64_t i = 0; i < nb; ++i, x += kQK) {
    const float d = signed_abs_max(x, kQK) / -16;
    const float id = d != 0.0f ? 1.0f / d : 0.0f;
    y[i].d = f32_to_f16(d);
    uint8_t q[kQK];
    for (int j = 0; j < kQK; ++j) {
      q[j] = static_cast<uint8_t>(
          std::min(31, static_cast<int>(static_cast<int8_t>(x[j] * id + 16.5f))));
    }
    pack_q5(q, y[i].qs, y[i].qh);
  }
}

void quantize_q5_1(const float* x, BlockQ5_1* y, int64_t nb) {
  for (int64_t i = 0; i < nb; ++i, x += kQK) {
    float min, max;
    min_max(x, kQK, min, max);
    const float d = (max - min) / 31;
    const float id = d != 0.0f ? 1.0f / d : 0.0f;
    y[i].d = f32_to_f16(d);
    y[i].m = f32_to_f16(min);
    uint8_t q[kQK];
    for (int j = 0; j < kQK; ++j) q[j] = static_cast<uint8_t>((x[j] - min) * id + 0.5f);
    pack_q5(q, y[i].qs, y[i].qh);
  }
}

// Q8_K: the signed extreme maps to -127; d is kept as F32.
void quantize_q8_k(const float* x, BlockQ8_K* y, int64_t nb) {
  for (int64_t i = 0; i < nb; ++i, x += kQK_K) {
    const float max = signed_abs_max(x, kQK_K);
    if (max == 0.0f) {
      std::memset(&y[i], 0, sizeof(BlockQ8_K));
      continue;
    }
    const float iscale = -127.0f / max;
    for (int j = 0; j < kQK_K; ++j) {
      y[i].qs[j] = static_cast<int8_t>(std::min(127, nearest_int(iscale * x[j])));
    }
    for (int g = 0; g < kQK_K / 16; ++g) {
      int sum = 0;
      for (int l = 0; l < 16; ++l) sum += y[i].qs[16 * g + l];
      y[i].bsums[g] = static_cast<int16_t>(sum);
    }
    y[i].d = 1 / iscale;
  }
}

}  // namespace

bool can_quantize(ElementType type) {
  switch (type) {
    case ElementType::kF32:
    case ElementType::kF16:
    case ElementType::kBF16:
    case ElementType::kQ4_0:
    case ElementType::kQ4_1:
    case ElementType::kQ5_0:
    case ElementType::kQ5_1:
    case ElementType::kQ8_0:
    case ElementType::kQ8_1:
    case ElementType::kQ2_K:
    case ElementType::kQ3_K:
    case ElementType::kQ4_K:
    case ElementType::kQ5_K:
    case ElementType::kQ6_K:
    case ElementType::kQ8_K:
    case ElementType::kIQ4_NL:
    case ElementType::kIQ4_XS:
    case ElementType::kMXFP4:
      return true;
    default:
      return false;
  }
}

void quantize_row(ElementType type, const float* x, void* dst, int64_t n) {
  const int64_t nb = n / element_type_info(type).block_size;
  switch (type) {
    case ElementType::kF32:
      std::memcpy(dst, x, n * sizeof(float));
      return;
    case ElementType::kF16:
      return quantize_f16(x, static_cast<uint16_t*>(dst), n);
    case ElementType::kBF16:
      return quantize_bf16(x, static_cast<uint16_t*>(dst), n);
    case ElementType::kQ4_0:
      return quantize_q4_0(x, static_cast<BlockQ4_0*>(dst), nb);
    case ElementType::kQ4_1:
      return quantize_q4_1(x, static_cast<BlockQ4_1*>(dst), nb);
    case ElementType::kQ5_0:
      return quantize_q5_0(x, static_cast<BlockQ5_0*>(dst), nb);
    case ElementType::kQ5_1:
      return quantize_q5_1(x, static_cast<BlockQ5_1*>(dst), nb);
    case ElementType::kQ8_0:
      return quantize_q8_0(x, static_cast<BlockQ8_0*>(dst), nb);
    case ElementType::kQ8_1:
      return quantize_q8_1(x, static_cast<BlockQ8_1*>(dst), nb);
    case ElementType::kQ2_K:
      return quantize_q2_k(x, static_cast<BlockQ2_K*>(dst), nb);
    case ElementType::kQ3_K:
      return quantize_q3_k(x, static_cast<BlockQ3_K*>(dst), nb);
    case ElementType::kQ4_K:
      return quantize_q4_k(x, static_cast<BlockQ4_K*>(dst), nb);
    case ElementType::kQ5_K:
      return quantize_q5_k(x, static_cast<BlockQ5_K*>(dst), nb);
    case ElementType::kQ6_K:
      return quantize_q6_k(x, static_cast<BlockQ6_K*>(dst), nb);
    case ElementType::kQ8_K:
      return quantize_q8_k(x, static_cast<BlockQ8_K*>(dst), nb);
    case ElementType::kIQ4_NL:
      return quantize_iq4_nl(x, static_cast<BlockIQ4_NL*>(dst), nb);
    case ElementType::kIQ4_XS:
      return quantize_iq4_xs(x, static_cast<BlockIQ4_XS*>(dst), nb);
    case ElementType::kMXFP4:
      return quantize_mxfp4(x, static_cast<BlockMXFP4*>(dst), nb);
    default:
      assert(false && "quantize_row: type cannot be quantized");
  }
}

}  // namespace ingot::kernels
