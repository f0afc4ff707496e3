// AVX-512 activation packers, bit-identical to the scalar references in
// activation_pack.cpp: vcvtps2dq rounds half to even like nearbyint and
// nearest_int, and vcvtps2ph rounds like f32_to_f16.
// GCC 12 flags the deliberately undefined lanes inside its own AVX-512
// intrinsics (cvtph_ps, reduce_add) as uninitialized.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>

#include <cstring>

#include "kernels/block_formats.h"
#include "kernels/pack_q8_rows.h"
#include "kernels/x86/matmul_kernels_avx512.h"

namespace ingot::kernels {
namespace {

uint16_t to_f16(float f) {
  return static_cast<uint16_t>(_cvtss_sh(f, _MM_FROUND_TO_NEAREST_INT));
}

// Quantizes one 32-element block with d = amax / 127; returns sum(qs).
int pack_q8_block(const float* x, int8_t* qs, float* d_out) {
  const __m512 v0 = _mm512_loadu_ps(x);
  const __m512 v1 = _mm512_loadu_ps(x + 16);
  const float amax = _mm512_reduce_max_ps(_mm512_max_ps(_mm512_abs_ps(v0), _mm512_abs_ps(v1)));
  *d_out = amax / 127.f;
  const __m512 id = _mm512_set1_ps(amax != 0.0f ? 127.f / amax : 0.0f);
  const __m512i q0 = _mm512_cvtps_epi32(_mm512_mul_ps(v0, id));
  const __m512i q1 = _mm512_cvtps_epi32(_mm512_mul_ps(v1, id));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(qs), _mm512_cvtsepi32_epi8(q0));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(qs + 16), _mm512_cvtsepi32_epi8(q1));
  return _mm512_reduce_add_epi32(_mm512_add_epi32(q0, q1));
}

}  // namespace

void avx512::pack_q8_0(const float* x, void* dst, int64_t n) {
  pack_q8_0_rows<pack_q8_block, to_f16>(x, dst, n);
}

void avx512::pack_q8_1(const float* x, void* dst, int64_t n) {
  pack_q8_1_rows<pack_q8_block, to_f16>(x, dst, n);
}

// Q8_K: the element of largest magnitude (the first, on ties) maps to -127.
void avx512::pack_q8_k(const float* x, void* dst, int64_t n) {
  auto* y = static_cast<BlockQ8_K*>(dst);
  for (int64_t b = 0; b < n / kQK_K; ++b, x += kQK_K) {
    __m512 vmax = _mm512_setzero_ps();
    for (int i = 0; i < kQK_K; i += 16)
      vmax = _mm512_max_ps(vmax, _mm512_abs_ps(_mm512_loadu_ps(x + i)));
    const float amax = _mm512_reduce_max_ps(vmax);
    if (amax == 0.0f) {
      std::memset(&y[b], 0, sizeof(BlockQ8_K));
      continue;
    }
    float max = 0.0f;
    for (int i = 0; i < kQK_K; i += 16) {
      const __mmask16 hit = _mm512_cmp_ps_mask(_mm512_abs_ps(_mm512_loadu_ps(x + i)),
                                               _mm512_set1_ps(amax), _CMP_EQ_OQ);
      if (hit != 0) {
        max = x[i + __builtin_ctz(hit)];
        break;
      }
    }
    const float iscale = -127.f / max;
    const __m512 scale = _mm512_set1_ps(iscale);
    for (int i = 0; i < kQK_K; i += 16) {
      __m512i q = _mm512_cvtps_epi32(_mm512_mul_ps(_mm512_loadu_ps(x + i), scale));
      q = _mm512_min_epi32(q, _mm512_set1_epi32(127));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(y[b].qs + i), _mm512_cvtsepi32_epi8(q));
      y[b].bsums[i / 16] = static_cast<int16_t>(_mm512_reduce_add_epi32(q));
    }
    y[b].d = 1 / iscale;
  }
}

void avx512::pack_f16(const float* x, void* dst, int64_t n) {
  auto* y = static_cast<uint16_t*>(dst);
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(y + i),
                        _mm512_cvtps_ph(_mm512_loadu_ps(x + i), _MM_FROUND_TO_NEAREST_INT));
  }
  if (i < n) {
    const auto mask = static_cast<__mmask16>((1u << (n - i)) - 1);
    const __m256i h =
        _mm512_cvtps_ph(_mm512_maskz_loadu_ps(mask, x + i), _MM_FROUND_TO_NEAREST_INT);
    _mm256_mask_storeu_epi16(y + i, mask, h);
  }
}

}  // namespace ingot::kernels
