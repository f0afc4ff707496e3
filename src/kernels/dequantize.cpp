#include "kernels/dequantize.h"

#include <cassert>
#include <cstring>

#include "kernels/block_formats.h"
#include "kernels/half.h"

namespace ingot::kernels {
namespace {

void dequantize_f32(const float* x, float* y, int64_t n) {
  std::memcpy(y, x, n * sizeof(float));
}

void dequantize_f16(const uint16_t* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] = f16_to_f32(x[i]);
}

void dequantize_bf16(const uint16_t* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] = bf16_to_f32(x[i]);
}

void dequantize_q4_0(const BlockQ4_0* x, float* y, int64_t nb) {
  for (int64_t i = 0; i < nb; ++i, y += kQK) {
    const float d = f16_to_f32(x[i].d);
    for (int j = 0; j < kQK / 2; ++j) {
      y[j] = ((x[i].qs[j] & 0xf) - 8) * d;
      y[j + kQK / 2] = ((x[i].qs[j] >> 4) - 8) * d;
    }
  }
}

void dequantize_q4_1(const BlockQ4_1* x, float* y, int64_t nb) {
  for (int64_t i = 0; i < nb; ++i, y += kQK) {
    const float d = f16_to_f32(x[i].d);
    const float m = f16_to_f32(x[i].m);
    for (int j = 0; j < kQK / 2; ++j) {
      y[j] = (x[i].qs[j] & 0xf) * d + m;
      y[j + kQK / 2] = (x[i].qs[j] >> 4) * d + m;
    }
  }
}

uint32_t load_u32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

// The 5-bit value of element j (0..31) of a Q5 block, before any offset.
int q5_value(const uint8_t* qs, uint32_t qh, int j) {
  int low = j < kQK / 2 ? qs[j] & 0xf : qs[j - kQK / 2] >> 4;
  return low | static_cast<int>(((qh >> j) & 1) << 4);
}

void dequantize_q5_0(const BlockQ5_0* x, float* y, int64_t nb) {
  for (int64_t i = 0; i < nb; ++i, y += kQK) {
    const float d = f16_to_f32(x[i].d);
    const uint32_t qh = load_u32(x[i].qh);
    for (int j = 0; j < kQK; ++j) y[j] = (q5_value(x[i].qs, qh, j) - 16) * d;
  }
}

void dequantize_q5_1(const BlockQ5_1* x, float* y, int64_t nb) {
  for (int64_t i = 0; i < nb; ++i, y += kQK) {
    const float d = f16_to_f32(x[i].d);
    const float m = f16_to_f32(x[i].m);
    const uint32_t qh = load_u32(x[i].qh);
    for (int j = 0; j < kQK; ++j) y[j] = q5_value(x[i].qs, qh, j) * d + m;
  }
}

void dequantize_q8_0(const BlockQ8_0* x, float* y, int64_t nb) {
  for (int64_t i = 0; i < nb; ++i, y += kQK) {
    const float d = f16_to_f32(x[i].d);
    for (int j = 0; j < kQK; ++j) y[j] = x[i].qs[j] * d;
  }
}

void dequantize_q8_1(const BlockQ8_1* x, float* y, int64_t nb) {
  for (int64_t i = 0; i < nb; ++i, y += kQK) {
    const float d = f16_to_f32(x[i].d);
    for (int j = 0; j < kQK; ++j) y[j] = x[i].qs[j] * d;
  }
}

// Q2_K: 16 sub-blocks of 16. Byte l of each 32-byte group of qs holds, in
// bit pairs 0..3, elements l of four consecutive 32-element runs.
void dequantize_q2_k(const BlockQ2_K* x, float* y, int64_t nb) {
  for (int64_t i = 0; i < nb; ++i) {
    const float d = f16_to_f32(x[i].d);
    const float dmin = f16_to_f32(x[i].dmin);
    for (int e = 0; e < kQK_K; ++e, ++y) {
      const int half = e / 128, pair = (e % 128) / 32, l = e % 32;
      const uint8_t sc = x[i].scales[e / 16];
      const int q = (x[i].qs[32 * half + l] >> (2 * pair)) & 3;
      *y = d * (sc & 0xf) * q - dmin * (sc >> 4);
    }
  }
}

// Q3_K: like Q2_K's 2-bit layout plus a high bit in hmask (bit b of byte l
// for element run b); a clear high bit subtracts 4.
void dequantize_q3_k(const BlockQ3_K* x, float* y, int64_t nb) {
  for (int64_t i = 0; i < nb; ++i) {
    const float d = f16_to_f32(x[i].d);
    int8_t scales[16];
    q3_k_scales(x[i].scales, scales);
    for (int e = 0; e < kQK_K; ++e, ++y) {
      const int half = e / 128, pair = (e % 128) / 32, l = e % 32;
      const int low = (x[i].qs[32 * half + l] >> (2 * pair)) & 3;
      const bool high = x[i].hmask[l] & (1 << (4 * half + pair));
      *y = d * scales[e / 16] * (low - (high ? 0 : 4));
    }
  }
}

// Q4_K: 8 sub-blocks of 32; each 32-byte run of qs holds two sub-blocks,
// the first in the low nibbles.
void dequantize_q4_k(const BlockQ4_K* x, float* y, int64_t nb) {
  for (int64_t i = 0; i < nb; ++i) {
    const float d = f16_to_f32(x[i].d);
    const float dmin = f16_to_f32(x[i].dmin);
    for (int sub = 0; sub < 8; ++sub) {
      const ScaleMin sm = k4_scale_min(x[i].scales, sub);
      const float scale = d * sm.scale, min = dmin * sm.min;
      const uint8_t* q = x[i].qs + 32 * (sub / 2);
      const int shift = 4 * (sub % 2);
      for (int l = 0; l < 32; ++l) *y++ = scale * ((q[l] >> shift) & 0xf) - min;
    }
  }
}

// Q5_K: Q4_K plus a fifth bit, bit `sub` of qh[l].
void dequantize_q5_k(const BlockQ5_K* x, float* y, int64_t nb) {
  for (int64_t i = 0; i < nb; ++i) {
    const float d = f16_to_f32(x[i].d);
    const float dmin = f16_to_f32(x[i].dmin);
    for (int sub = 0; sub < 8; ++sub) {
      const ScaleMin sm = k4_scale_min(x[i].scales, sub);
      const float scale = d * sm.scale, min = dmin * sm.min;
      const uint8_t* q = x[i].qs + 32 * (sub / 2);
      const int shift = 4 * (sub % 2);
      for (int l = 0; l < 32; ++l) {
        const int high = (x[i].qh[l] >> sub) & 1;
        *y++ = scale * (((q[l] >> shift) & 0xf) | (high << 4)) - min;
      }
    }
  }
}

void dequantize_q6_k(const BlockQ6_K* x, float* y, int64_t nb) {
  for (int64_t i = 0; i < nb; ++i) {
    const float d = f16_to_f32(x[i].d);
    for (int e = 0; e < kQK_K; ++e) *y++ = d * x[i].scales[e / 16] * (q6_k_value(x[i], e) - 32);
  }
}

void dequantize_q8_k(const BlockQ8_K* x, float* y, int64_t nb) {
  for (int64_t i = 0; i < nb; ++i) {
    for (int e = 0; e < kQK_K; ++e) *y++ = x[i].d * x[i].qs[e];
  }
}

// A 32-element block of table indices: low nibbles first, as Q4_0.
void dequantize_table_block(const uint8_t* qs, const int8_t* table, float d, float* y) {
  for (int j = 0; j < kQK / 2; ++j) {
    y[j] = d * table[qs[j] & 0xf];
    y[j + kQK / 2] = d * table[qs[j] >> 4];
  }
}

void dequantize_iq4_nl(const BlockIQ4_NL* x, float* y, int64_t nb) {
  for (int64_t i = 0; i < nb; ++i) {
    dequantize_table_block(x[i].qs, kIq4NlValues, f16_to_f32(x[i].d), y + i * kQK);
  }
}

void dequantize_iq4_xs(const BlockIQ4_XS* x, float* y, int64_t nb) {
  for (int64_t i = 0; i < nb; ++i) {
    const float d = f16_to_f32(x[i].d);
    for (int j = 0; j < kSubBlocksPerSuperBlock; ++j) {
      dequantize_table_block(x[i].qs + j * kQK / 2, kIq4NlValues, d * float(iq4_xs_scale(x[i], j)),
                             y + i * kQK_K + j * kQK);
    }
  }
}

void dequantize_mxfp4(const BlockMXFP4* x, float* y, int64_t nb) {
  for (int64_t i = 0; i < nb; ++i) {
    dequantize_table_block(x[i].qs, kMxfp4Values, mxfp4_scale(x[i].e), y + i * kQK);
  }
}

}  // namespace

void dequantize_row(ElementType type, const void* src, float* dst, int64_t n) {
  const int64_t nb = n / element_type_info(type).block_size;
  switch (type) {
    case ElementType::kF32:
      return dequantize_f32(static_cast<const float*>(src), dst, n);
    case ElementType::kF16:
      return dequantize_f16(static_cast<const uint16_t*>(src), dst, n);
    case ElementType::kBF16:
      return dequantize_bf16(static_cast<const uint16_t*>(src), dst, n);
    case ElementType::kQ4_0:
      return dequantize_q4_0(static_cast<const BlockQ4_0*>(src), dst, nb);
    case ElementType::kQ4_1:
      return dequantize_q4_1(static_cast<const BlockQ4_1*>(src), dst, nb);
    case ElementType::kQ5_0:
      return dequantize_q5_0(static_cast<const BlockQ5_0*>(src), dst, nb);
    case ElementType::kQ5_1:
      return dequantize_q5_1(static_cast<const BlockQ5_1*>(src), dst, nb);
    case ElementType::kQ8_0:
      return dequantize_q8_0(static_cast<const BlockQ8_0*>(src), dst, nb);
    case ElementType::kQ8_1:
      return dequantize_q8_1(static_cast<const BlockQ8_1*>(src), dst, nb);
    case ElementType::kQ2_K:
      return dequantize_q2_k(static_cast<const BlockQ2_K*>(src), dst, nb);
    case ElementType::kQ3_K:
      return dequantize_q3_k(static_cast<const BlockQ3_K*>(src), dst, nb);
    case ElementType::kQ4_K:
      return dequantize_q4_k(static_cast<const BlockQ4_K*>(src), dst, nb);
    case ElementType::kQ5_K:
      return dequantize_q5_k(static_cast<const BlockQ5_K*>(src), dst, nb);
    case ElementType::kQ6_K:
      return dequantize_q6_k(static_cast<const BlockQ6_K*>(src), dst, nb);
    case ElementType::kQ8_K:
      return dequantize_q8_k(static_cast<const BlockQ8_K*>(src), dst, nb);
    case ElementType::kIQ4_NL:
      return dequantize_iq4_nl(static_cast<const BlockIQ4_NL*>(src), dst, nb);
    case ElementType::kIQ4_XS:
      return dequantize_iq4_xs(static_cast<const BlockIQ4_XS*>(src), dst, nb);
    case ElementType::kMXFP4:
      return dequantize_mxfp4(static_cast<const BlockMXFP4*>(src), dst, nb);
    default:
      assert(false && "dequantize_row: unsupported element type");
  }
}

}  // namespace ingot::kernels
