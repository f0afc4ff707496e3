// NEON activation packers, bit-identical to the scalar references in
// activation_pack.cpp: FCVTNS rounds half to even like nearbyint, and
// FCVTN to half precision rounds like f32_to_f16 (both under the default
// FPCR: round to nearest even, no flush to zero).
#include <arm_neon.h>

#include <cmath>
#include <cstring>

#include "kernels/arm/matmul_kernels_neon.h"
#include "kernels/block_formats.h"
#include "kernels/half.h"
#include "kernels/pack_q8_rows.h"
#include "kernels/path_lists.h"

namespace ingot::kernels {
namespace {

// Quantizes one 32-element block with d = amax / 127; returns sum(qs).
int pack_q8_block(const float* x, int8_t* qs, float* d_out) {
  float32x4_t v[8];
  float32x4_t amax = vdupq_n_f32(0.0f);
  for (int i = 0; i < 8; ++i) {
    v[i] = vld1q_f32(x + 4 * i);
    amax = vmaxq_f32(amax, vabsq_f32(v[i]));
  }
  const float max = vmaxvq_f32(amax);
  *d_out = max / 127.f;
  const float32x4_t id = vdupq_n_f32(max != 0.0f ? 127.f / max : 0.0f);
  int32x4_t sum = vdupq_n_s32(0);
  for (int i = 0; i < 8; i += 2) {
    const int32x4_t a = vcvtnq_s32_f32(vmulq_f32(v[i], id));
    const int32x4_t b = vcvtnq_s32_f32(vmulq_f32(v[i + 1], id));
    sum = vaddq_s32(sum, vaddq_s32(a, b));
    const int16x8_t pairs = vcombine_s16(vqmovn_s32(a), vqmovn_s32(b));
    vst1_s8(qs + 4 * i, vqmovn_s16(pairs));
  }
  return vaddvq_s32(sum);
}

}  // namespace

void neon::pack_q8_0(const float* x, void* dst, int64_t n) {
  pack_q8_0_rows<pack_q8_block, f32_to_f16>(x, dst, n);
}

void neon::pack_q8_1(const float* x, void* dst, int64_t n) {
  pack_q8_1_rows<pack_q8_block, f32_to_f16>(x, dst, n);
}

// Q8_K: the element of largest magnitude (the first, on ties) maps to -127.
void neon::pack_q8_k(const float* x, void* dst, int64_t n) {
  auto* y = static_cast<BlockQ8_K*>(dst);
  for (int64_t b = 0; b < n / kQK_K; ++b, x += kQK_K) {
    float32x4_t vmax = vdupq_n_f32(0.0f);
    for (int i = 0; i < kQK_K; i += 4) vmax = vmaxq_f32(vmax, vabsq_f32(vld1q_f32(x + i)));
    const float amax = vmaxvq_f32(vmax);
    if (amax == 0.0f) {
      std::memset(&y[b], 0, sizeof(BlockQ8_K));
      continue;
    }
    int first = 0;
    while (std::fabs(x[first]) != amax) ++first;
    const float iscale = -127.f / x[first];
    for (int i = 0; i < kQK_K; i += 16) {
      int32x4_t q[4];
      for (int k = 0; k < 4; ++k) {
        q[k] = vminq_s32(vcvtnq_s32_f32(vmulq_n_f32(vld1q_f32(x + i + 4 * k), iscale)),
                         vdupq_n_s32(127));
      }
      const int16x8_t low = vcombine_s16(vqmovn_s32(q[0]), vqmovn_s32(q[1]));
      const int16x8_t high = vcombine_s16(vqmovn_s32(q[2]), vqmovn_s32(q[3]));
      vst1q_s8(y[b].qs + i, vcombine_s8(vqmovn_s16(low), vqmovn_s16(high)));
      y[b].bsums[i / 16] =
          static_cast<int16_t>(vaddvq_s32(vaddq_s32(vaddq_s32(q[0], q[1]), vaddq_s32(q[2], q[3]))));
    }
    y[b].d = 1 / iscale;
  }
}

void neon::pack_f16(const float* x, void* dst, int64_t n) {
  auto* y = static_cast<uint16_t*>(dst);
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    vst1_u16(y + i, vreinterpret_u16_f16(vcvt_f16_f32(vld1q_f32(x + i))));
  }
  for (; i < n; ++i) y[i] = f32_to_f16(x[i]);
}

PackRowFn neon::pack_row(ElementType packed) {
  return Packers{pack_q8_0, pack_q8_1, pack_q8_k, pack_f16}.for_type(packed);
}

}  // namespace ingot::kernels
