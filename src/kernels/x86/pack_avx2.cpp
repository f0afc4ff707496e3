// AVX2 activation packers, bit-identical to the scalar references in
// activation_pack.cpp: vcvtps2dq rounds half to even like nearbyint, and
// vcvtps2ph rounds like f32_to_f16.
#include <immintrin.h>

#include <cstring>

#include "kernels/block_formats.h"
#include "kernels/pack_q8_rows.h"
#include "kernels/x86/horizontal_reduce_avx2.h"
#include "kernels/x86/matmul_kernels_avx2.h"

namespace ingot::kernels {
namespace {

uint16_t to_f16(float f) {
  return static_cast<uint16_t>(_cvtss_sh(f, _MM_FROUND_TO_NEAREST_INT));
}

// 32 quants in four vectors of eight as bytes, in element order (packs
// interleaves 128-bit lanes; the permute restores the order).
void store_bytes(const __m256i (&q)[4], int8_t* qs) {
  const __m256i q16a = _mm256_packs_epi32(q[0], q[1]);
  const __m256i q16b = _mm256_packs_epi32(q[2], q[3]);
  const __m256i q8 = _mm256_permutevar8x32_epi32(_mm256_packs_epi16(q16a, q16b),
                                                 _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(qs), q8);
}

int horizontal_sum_i32(__m256i s) {
  __m128i s4 = _mm_add_epi32(_mm256_castsi256_si128(s), _mm256_extracti128_si256(s, 1));
  s4 = _mm_add_epi32(s4, _mm_shuffle_epi32(s4, 0x4e));
  s4 = _mm_add_epi32(s4, _mm_shuffle_epi32(s4, 0xb1));
  return _mm_cvtsi128_si32(s4);
}

// Quantizes one 32-element block with d = amax / 127; returns sum(qs).
int pack_q8_block(const float* x, int8_t* qs, float* d_out) {
  const __m256 sign = _mm256_set1_ps(-0.0f);
  __m256 v[4];
  __m256 amax = _mm256_setzero_ps();
  for (int i = 0; i < 4; ++i) {
    v[i] = _mm256_loadu_ps(x + 8 * i);
    amax = _mm256_max_ps(amax, _mm256_andnot_ps(sign, v[i]));
  }
  const float max = horizontal_max(amax);
  *d_out = max / 127.f;
  const __m256 id = _mm256_set1_ps(max != 0.0f ? 127.f / max : 0.0f);
  __m256i q[4];
  for (int i = 0; i < 4; ++i) q[i] = _mm256_cvtps_epi32(_mm256_mul_ps(v[i], id));
  store_bytes(q, qs);
  return horizontal_sum_i32(
      _mm256_add_epi32(_mm256_add_epi32(q[0], q[1]), _mm256_add_epi32(q[2], q[3])));
}

// The first element of the block whose magnitude is amax, with its sign.
float signed_extreme(const float* x, float amax) {
  const __m256 sign = _mm256_set1_ps(-0.0f);
  for (int i = 0; i < kQK_K; i += 8) {
    const int hit = _mm256_movemask_ps(_mm256_cmp_ps(_mm256_andnot_ps(sign, _mm256_loadu_ps(x + i)),
                                                     _mm256_set1_ps(amax), _CMP_EQ_OQ));
    if (hit != 0) return x[i + __builtin_ctz(hit)];
  }
  return 0.0f;
}

}  // namespace

void avx2::pack_q8_0(const float* x, void* dst, int64_t n) {
  pack_q8_0_rows<pack_q8_block, to_f16>(x, dst, n);
}

void avx2::pack_q8_1(const float* x, void* dst, int64_t n) {
  pack_q8_1_rows<pack_q8_block, to_f16>(x, dst, n);
}

// Q8_K: the element of largest magnitude (the first, on ties) maps to -127.
void avx2::pack_q8_k(const float* x, void* dst, int64_t n) {
  auto* y = static_cast<BlockQ8_K*>(dst);
  const __m256 sign = _mm256_set1_ps(-0.0f);
  for (int64_t b = 0; b < n / kQK_K; ++b, x += kQK_K) {
    __m256 vmax = _mm256_setzero_ps();
    for (int i = 0; i < kQK_K; i += 8) {
      vmax = _mm256_max_ps(vmax, _mm256_andnot_ps(sign, _mm256_loadu_ps(x + i)));
    }
    const float amax = horizontal_max(vmax);
    if (amax == 0.0f) {
      std::memset(&y[b], 0, sizeof(BlockQ8_K));
      continue;
    }
    const float iscale = -127.f / signed_extreme(x, amax);
    const __m256 scale = _mm256_set1_ps(iscale);
    for (int i = 0; i < kQK_K; i += 32) {
      __m256i q[4];
      for (int k = 0; k < 4; ++k) {
        q[k] = _mm256_min_epi32(
            _mm256_cvtps_epi32(_mm256_mul_ps(_mm256_loadu_ps(x + i + 8 * k), scale)),
            _mm256_set1_epi32(127));
      }
      store_bytes(q, y[b].qs + i);
      y[b].bsums[i / 16] = static_cast<int16_t>(horizontal_sum_i32(_mm256_add_epi32(q[0], q[1])));
      y[b].bsums[i / 16 + 1] =
          static_cast<int16_t>(horizontal_sum_i32(_mm256_add_epi32(q[2], q[3])));
    }
    y[b].d = 1 / iscale;
  }
}

void avx2::pack_f16(const float* x, void* dst, int64_t n) {
  auto* y = static_cast<uint16_t*>(dst);
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(y + i),
                     _mm256_cvtps_ph(_mm256_loadu_ps(x + i), _MM_FROUND_TO_NEAREST_INT));
  }
  for (; i < n; ++i) y[i] = to_f16(x[i]);
}

}  // namespace ingot::kernels
