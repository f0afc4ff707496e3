#include "kernels/vec_dot.h"

#include <cassert>
#include <cstring>

#include "kernels/block_formats.h"
#include "kernels/half.h"

namespace ingot::kernels {
namespace {

float dot_f32(const float* w, const float* x, int64_t n) {
  float sum = 0.0f;
  for (int64_t i = 0; i < n; ++i) sum += w[i] * x[i];
  return sum;
}

float dot_f16(const uint16_t* w, const uint16_t* x, int64_t n) {
  float sum = 0.0f;
  for (int64_t i = 0; i < n; ++i) sum += f16_to_f32(w[i]) * f16_to_f32(x[i]);
  return sum;
}

float dot_bf16(const uint16_t* w, const uint16_t* x, int64_t n) {
  float sum = 0.0f;
  for (int64_t i = 0; i < n; ++i) sum += bf16_to_f32(w[i]) * bf16_to_f32(x[i]);
  return sum;
}

uint32_t load_u32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

// Element j of a 32-element block of nibbles, with its optional fifth bit.
int nibble(const uint8_t* qs, int j) {
  return j < 16 ? qs[j] & 0xf : qs[j - 16] >> 4;
}
int fifth_bit(uint32_t qh, int j) {
  return static_cast<int>((qh >> j) & 1) << 4;
}

float dot_q4_0(const BlockQ4_0* w, const BlockQ8_0* x, int64_t nb) {
  float sum = 0.0f;
  for (int64_t i = 0; i < nb; ++i) {
    int sumi = 0;
    for (int j = 0; j < kQK; ++j) sumi += (nibble(w[i].qs, j) - 8) * x[i].qs[j];
    sum += sumi * (f16_to_f32(w[i].d) * f16_to_f32(x[i].d));
  }
  return sum;
}

float dot_q4_1(const BlockQ4_1* w, const BlockQ8_1* x, int64_t nb) {
  float sum = 0.0f;
  for (int64_t i = 0; i < nb; ++i) {
    int sumi = 0;
    for (int j = 0; j < kQK; ++j) sumi += nibble(w[i].qs, j) * x[i].qs[j];
    sum +=
        (f16_to_f32(w[i].d) * f16_to_f32(x[i].d)) * sumi + f16_to_f32(w[i].m) * f16_to_f32(x[i].s);
  }
  return sum;
}

float dot_q5_0(const BlockQ5_0* w, const BlockQ8_0* x, int64_t nb) {
  float sum = 0.0f;
  for (int64_t i = 0; i < nb; ++i) {
    const uint32_t qh = load_u32(w[i].qh);
    int sumi = 0;
    for (int j = 0; j < kQK; ++j) {
      sumi += ((nibble(w[i].qs, j) | fifth_bit(qh, j)) - 16) * x[i].qs[j];
    }
    sum += sumi * (f16_to_f32(w[i].d) * f16_to_f32(x[i].d));
  }
  return sum;
}

float dot_q5_1(const BlockQ5_1* w, const BlockQ8_1* x, int64_t nb) {
  float sum = 0.0f;
  for (int64_t i = 0; i < nb; ++i) {
    const uint32_t qh = load_u32(w[i].qh);
    int sumi = 0;
    for (int j = 0; j < kQK; ++j) sumi += (nibble(w[i].qs, j) | fifth_bit(qh, j)) * x[i].qs[j];
    sum +=
        (f16_to_f32(w[i].d) * f16_to_f32(x[i].d)) * sumi + f16_to_f32(w[i].m) * f16_to_f32(x[i].s);
  }
  return sum;
}

// Q8_0 or Q8_1 weights (Q8_1's extra sum field plays no part here).
template <typename WeightBlock>
float dot_q8(const WeightBlock* w, const BlockQ8_0* x, int64_t nb) {
  float sum = 0.0f;
  for (int64_t i = 0; i < nb; ++i) {
    int sumi = 0;
    for (int j = 0; j < kQK; ++j) sumi += w[i].qs[j] * x[i].qs[j];
    sum += sumi * (f16_to_f32(w[i].d) * f16_to_f32(x[i].d));
  }
  return sum;
}

// The K-quants: per super-block, sum over sub-blocks of scale * (integer
// dot), minus (for types with mins) dmin * sum of min * activation sums.
int dot16(const int8_t* q, const int8_t* x) {
  int sum = 0;
  for (int l = 0; l < 16; ++l) sum += q[l] * x[l];
  return sum;
}

float dot_q2_k(const BlockQ2_K* w, const BlockQ8_K* x, int64_t nb) {
  float sum = 0.0f;
  for (int64_t i = 0; i < nb; ++i) {
    int8_t q[kQK_K];
    for (int e = 0; e < kQK_K; ++e) {
      q[e] = static_cast<int8_t>((w[i].qs[32 * (e / 128) + e % 32] >> (2 * ((e % 128) / 32))) & 3);
    }
    int scaled = 0, mins = 0;
    for (int s = 0; s < 16; ++s) {
      scaled += (w[i].scales[s] & 0xf) * dot16(q + 16 * s, x[i].qs + 16 * s);
      mins += (w[i].scales[s] >> 4) * x[i].bsums[s];
    }
    sum += x[i].d * f16_to_f32(w[i].d) * scaled - x[i].d * f16_to_f32(w[i].dmin) * mins;
  }
  return sum;
}

float dot_q3_k(const BlockQ3_K* w, const BlockQ8_K* x, int64_t nb) {
  float sum = 0.0f;
  for (int64_t i = 0; i < nb; ++i) {
    int8_t scales[16], q[kQK_K];
    q3_k_scales(w[i].scales, scales);
    for (int e = 0; e < kQK_K; ++e) {
      const int low = (w[i].qs[32 * (e / 128) + e % 32] >> (2 * ((e % 128) / 32))) & 3;
      const bool high = w[i].hmask[e % 32] & (1 << (e / 32));
      q[e] = static_cast<int8_t>(low - (high ? 0 : 4));
    }
    int scaled = 0;
    for (int s = 0; s < 16; ++s) scaled += scales[s] * dot16(q + 16 * s, x[i].qs + 16 * s);
    sum += x[i].d * f16_to_f32(w[i].d) * scaled;
  }
  return sum;
}

// Q4_K and Q5_K: 8 sub-blocks of 32, 6-bit scales and mins.
float k4_block_sum(const uint8_t* scales_packed, uint16_t d, uint16_t dmin, const int8_t* q,
                   const BlockQ8_K& x) {
  int scaled = 0, mins = 0;
  for (int s = 0; s < 8; ++s) {
    const ScaleMin sm = k4_scale_min(scales_packed, s);
    scaled +=
        sm.scale * (dot16(q + 32 * s, x.qs + 32 * s) + dot16(q + 32 * s + 16, x.qs + 32 * s + 16));
    mins += sm.min * (x.bsums[2 * s] + x.bsums[2 * s + 1]);
  }
  return x.d * f16_to_f32(d) * scaled - x.d * f16_to_f32(dmin) * mins;
}

float dot_q4_k(const BlockQ4_K* w, const BlockQ8_K* x, int64_t nb) {
  float sum = 0.0f;
  for (int64_t i = 0; i < nb; ++i) {
    int8_t q[kQK_K];
    for (int e = 0; e < kQK_K; ++e) {
      q[e] = static_cast<int8_t>((w[i].qs[32 * (e / 64) + e % 32] >> (4 * ((e / 32) % 2))) & 0xf);
    }
    sum += k4_block_sum(w[i].scales, w[i].d, w[i].dmin, q, x[i]);
  }
  return sum;
}

float dot_q5_k(const BlockQ5_K* w, const BlockQ8_K* x, int64_t nb) {
  float sum = 0.0f;
  for (int64_t i = 0; i < nb; ++i) {
    int8_t q[kQK_K];
    for (int e = 0; e < kQK_K; ++e) {
      const int low = (w[i].qs[32 * (e / 64) + e % 32] >> (4 * ((e / 32) % 2))) & 0xf;
      const int high = (w[i].qh[e % 32] >> (e / 32)) & 1;
      q[e] = static_cast<int8_t>(low | (high << 4));
    }
    sum += k4_block_sum(w[i].scales, w[i].d, w[i].dmin, q, x[i]);
  }
  return sum;
}

float dot_q6_k(const BlockQ6_K* w, const BlockQ8_K* x, int64_t nb) {
  float sum = 0.0f;
  for (int64_t i = 0; i < nb; ++i) {
    int8_t q[kQK_K];
    for (int e = 0; e < kQK_K; ++e) q[e] = static_cast<int8_t>(q6_k_value(w[i], e) - 32);
    int scaled = 0;
    for (int s = 0; s < 16; ++s) scaled += w[i].scales[s] * dot16(q + 16 * s, x[i].qs + 16 * s);
    sum += x[i].d * f16_to_f32(w[i].d) * scaled;
  }
  return sum;
}

float dot_q8_k(const BlockQ8_K* w, const BlockQ8_K* x, int64_t nb) {
  float sum = 0.0f;
  for (int64_t i = 0; i < nb; ++i) {
    int sumi = 0;
    for (int e = 0; e < kQK_K; ++e) sumi += w[i].qs[e] * x[i].qs[e];
    sum += w[i].d * x[i].d * sumi;
  }
  return sum;
}

// A 32-element block of table indices against 32 activation quants.
int table_block_dot(const uint8_t* qs, const int8_t* table, const int8_t* x) {
  int sum = 0;
  for (int j = 0; j < kQK / 2; ++j) {
    sum += table[qs[j] & 0xf] * x[j] + table[qs[j] >> 4] * x[j + kQK / 2];
  }
  return sum;
}

float dot_iq4_nl(const BlockIQ4_NL* w, const BlockQ8_0* x, int64_t nb) {
  float sum = 0.0f;
  for (int64_t i = 0; i < nb; ++i) {
    const int sumi = table_block_dot(w[i].qs, kIq4NlValues, x[i].qs);
    sum += sumi * (f16_to_f32(w[i].d) * f16_to_f32(x[i].d));
  }
  return sum;
}

float dot_mxfp4(const BlockMXFP4* w, const BlockQ8_0* x, int64_t nb) {
  float sum = 0.0f;
  for (int64_t i = 0; i < nb; ++i) {
    const int sumi = table_block_dot(w[i].qs, kMxfp4Values, x[i].qs);
    sum += sumi * (mxfp4_scale(w[i].e) * f16_to_f32(x[i].d));
  }
  return sum;
}

float dot_iq4_xs(const BlockIQ4_XS* w, const BlockQ8_K* x, int64_t nb) {
  float sum = 0.0f;
  for (int64_t i = 0; i < nb; ++i) {
    int scaled = 0;
    for (int j = 0; j < kSubBlocksPerSuperBlock; ++j) {
      scaled += iq4_xs_scale(w[i], j) *
                table_block_dot(w[i].qs + j * kQK / 2, kIq4NlValues, x[i].qs + j * kQK);
    }
    sum += x[i].d * f16_to_f32(w[i].d) * scaled;
  }
  return sum;
}

}  // namespace

float vec_dot(ElementType type, const void* w, const void* x, int64_t n) {
  const int64_t nb = n / element_type_info(type).block_size;
  switch (type) {
    case ElementType::kF32:
      return dot_f32(static_cast<const float*>(w), static_cast<const float*>(x), n);
    case ElementType::kF16:
      return dot_f16(static_cast<const uint16_t*>(w), static_cast<const uint16_t*>(x), n);
    case ElementType::kBF16:
      return dot_bf16(static_cast<const uint16_t*>(w), static_cast<const uint16_t*>(x), n);
    case ElementType::kQ4_0:
      return dot_q4_0(static_cast<const BlockQ4_0*>(w), static_cast<const BlockQ8_0*>(x), nb);
    case ElementType::kQ4_1:
      return dot_q4_1(static_cast<const BlockQ4_1*>(w), static_cast<const BlockQ8_1*>(x), nb);
    case ElementType::kQ5_0:
      return dot_q5_0(static_cast<const BlockQ5_0*>(w), static_cast<const BlockQ8_0*>(x), nb);
    case ElementType::kQ5_1:
      return dot_q5_1(static_cast<const BlockQ5_1*>(w), static_cast<const BlockQ8_1*>(x), nb);
    case ElementType::kQ8_0:
      return dot_q8(static_cast<const BlockQ8_0*>(w), static_cast<const BlockQ8_0*>(x), nb);
    case ElementType::kQ8_1:
      return dot_q8(static_cast<const BlockQ8_1*>(w), static_cast<const BlockQ8_0*>(x), nb);
    case ElementType::kQ2_K:
      return dot_q2_k(static_cast<const BlockQ2_K*>(w), static_cast<const BlockQ8_K*>(x), nb);
    case ElementType::kQ3_K:
      return dot_q3_k(static_cast<const BlockQ3_K*>(w), static_cast<const BlockQ8_K*>(x), nb);
    case ElementType::kQ4_K:
      return dot_q4_k(static_cast<const BlockQ4_K*>(w), static_cast<const BlockQ8_K*>(x), nb);
    case ElementType::kQ5_K:
      return dot_q5_k(static_cast<const BlockQ5_K*>(w), static_cast<const BlockQ8_K*>(x), nb);
    case ElementType::kQ6_K:
      return dot_q6_k(static_cast<const BlockQ6_K*>(w), static_cast<const BlockQ8_K*>(x), nb);
    case ElementType::kQ8_K:
      return dot_q8_k(static_cast<const BlockQ8_K*>(w), static_cast<const BlockQ8_K*>(x), nb);
    case ElementType::kIQ4_NL:
      return dot_iq4_nl(static_cast<const BlockIQ4_NL*>(w), static_cast<const BlockQ8_0*>(x), nb);
    case ElementType::kIQ4_XS:
      return dot_iq4_xs(static_cast<const BlockIQ4_XS*>(w), static_cast<const BlockQ8_K*>(x), nb);
    case ElementType::kMXFP4:
      return dot_mxfp4(static_cast<const BlockMXFP4*>(w), static_cast<const BlockQ8_0*>(x), nb);
    default:
      assert(false && "vec_dot: unsupported weight type");
      return 0.0f;
  }
}

}  // namespace ingot::kernels
