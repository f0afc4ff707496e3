// AVX2 kernels for Q4_K and Q6_K weights against Q8_K activations: one
// 32-element run per step, vpmaddubsw into 16-bit pairs, vpmaddwd by the
// sub-block scale into 32-bit lanes, one float scaling per super-block.
// Mins (Q4_K) and the -32 offset (Q6_K) come from the activation bsums.
#include <immintrin.h>

#include <cstring>

#include "kernels/block_formats.h"
#include "kernels/x86/horizontal_reduce_avx2.h"
#include "kernels/x86/matmul_kernels_avx2.h"
#include "kernels/x86/super_block_tile_avx2.h"

namespace ingot::kernels {
namespace {

uint32_t load_u32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

inline __m256i load32(const void* p) {
  return _mm256_loadu_si256(static_cast<const __m256i*>(p));
}

// scale * (w . x) over 32 elements, as eight 32-bit partial sums. `scales`
// holds one 16-bit scale per pair of elements.
inline __m256i scaled_dot(__m256i w, __m256i x, __m256i scales) {
  return _mm256_madd_epi16(_mm256_maddubs_epi16(w, x), scales);
}

// The 64 quants of sub-blocks 2c (lo) and 2c+1 (hi) of a Q4_K block.
struct Q4KRuns {
  using Block = BlockQ4_K;
  static void runs(const Block& blk, int c, __m256i& lo, __m256i& hi) {
    const __m256i q = load32(blk.qs + 32 * c);
    const __m256i nibble = _mm256_set1_epi8(0x0f);
    lo = _mm256_and_si256(q, nibble);
    hi = _mm256_and_si256(_mm256_srli_epi16(q, 4), nibble);
  }
};

// Q5_K: plus bit s of qh[l] as the fifth bit of sub-block s.
struct Q5KRuns {
  using Block = BlockQ5_K;
  static void runs(const Block& blk, int c, __m256i& lo, __m256i& hi) {
    const __m256i q = load32(blk.qs + 32 * c);
    const __m256i qh = load32(blk.qh);
    const __m256i nibble = _mm256_set1_epi8(0x0f), one = _mm256_set1_epi8(1);
    // Word shifts are safe: only bit 0 of each byte survives the mask.
    const __m256i bit_lo = _mm256_and_si256(_mm256_srl_epi16(qh, _mm_cvtsi32_si128(2 * c)), one);
    const __m256i bit_hi =
        _mm256_and_si256(_mm256_srl_epi16(qh, _mm_cvtsi32_si128(2 * c + 1)), one);
    lo = _mm256_or_si256(_mm256_and_si256(q, nibble), _mm256_slli_epi16(bit_lo, 4));
    hi = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(q, 4), nibble),
                         _mm256_slli_epi16(bit_hi, 4));
  }
};

template <class W>
struct Q4KAvx2 : SuperBlockTileAvx2 {
  using Block = typename W::Block;
  // The mins' term is summed apart in float, as the scalar reference does.
  struct Acc {
    __m256 sum = _mm256_setzero_ps();
    float mins = 0;
  };
  static float total(const Acc& acc) { return horizontal_sum(acc.sum) + acc.mins; }

  template <int T>
  void accumulate(const Block& blk, const XStep (&xs)[T], Acc (&acc)[T]) const {
    const uint32_t a = load_u32(blk.scales), m = load_u32(blk.scales + 4),
                   c = load_u32(blk.scales + 8);
    const uint32_t packed[4] = {a & 0x3f3f3f3fu, (c & 0x0f0f0f0fu) | ((a >> 2) & 0x30303030u),
                                m & 0x3f3f3f3fu,
                                ((c >> 4) & 0x0f0f0f0fu) | ((m >> 2) & 0x30303030u)};
    uint8_t sm[16];  // 8 scales, then 8 mins
    std::memcpy(sm, packed, 16);
    __m256i isum[T];
    for (int t = 0; t < T; ++t) isum[t] = _mm256_setzero_si256();
    for (int chunk = 0; chunk < 4; ++chunk) {
      __m256i lo, hi;
      W::runs(blk, chunk, lo, hi);
      const __m256i sc_lo = _mm256_set1_epi16(sm[2 * chunk]);
      const __m256i sc_hi = _mm256_set1_epi16(sm[2 * chunk + 1]);
      for (int t = 0; t < T; ++t) {
        const int8_t* xq = xs[t]->qs + 64 * chunk;
        isum[t] = _mm256_add_epi32(isum[t], scaled_dot(lo, load32(xq), sc_lo));
        isum[t] = _mm256_add_epi32(isum[t], scaled_dot(hi, load32(xq + 32), sc_hi));
      }
    }
    const float d = f16_[blk.d], dmin = f16_[blk.dmin];
    for (int t = 0; t < T; ++t) {
      const int16_t* bsums = xs[t]->bsums;
      int mins = 0;
      for (int s = 0; s < 8; ++s) mins += sm[8 + s] * (bsums[2 * s] + bsums[2 * s + 1]);
      acc[t].sum =
          _mm256_fmadd_ps(_mm256_cvtepi32_ps(isum[t]), _mm256_set1_ps(d * xs[t]->d), acc[t].sum);
      acc[t].mins -= dmin * xs[t]->d * static_cast<float>(mins);
    }
  }
};

struct Q6KAvx2 : SuperBlockTileAvx2 {
  using Block = BlockQ6_K;
  struct Acc {
    __m256 sum = _mm256_setzero_ps();
  };
  static float total(const Acc& acc) { return horizontal_sum(acc.sum); }

  template <int T>
  void accumulate(const Block& blk, const XStep (&xs)[T], Acc (&acc)[T]) const {
    const __m256i scale_words =
        _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(blk.scales)));
    __m256i isum[T];
    for (int t = 0; t < T; ++t) {
      // The -32 offset: -32 * sum over sub-blocks of scale * bsum.
      const __m256i offset = _mm256_madd_epi16(scale_words, load32(xs[t]->bsums));
      isum[t] = _mm256_sub_epi32(_mm256_setzero_si256(), _mm256_slli_epi32(offset, 5));
    }
    for (int half = 0; half < 2; ++half) {
      const __m256i ql0 = load32(blk.ql + 64 * half);
      const __m256i ql1 = load32(blk.ql + 64 * half + 32);
      const __m256i qh = load32(blk.qh + 32 * half);
      const __m256i run_q[4] = {
          _mm256_or_si256(_mm256_and_si256(ql0, nibble_),
                          _mm256_and_si256(_mm256_slli_epi16(qh, 4), high_pair_)),
          _mm256_or_si256(_mm256_and_si256(ql1, nibble_),
                          _mm256_and_si256(_mm256_slli_epi16(qh, 2), high_pair_)),
          _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(ql0, 4), nibble_),
                          _mm256_and_si256(qh, high_pair_)),
          _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(ql1, 4), nibble_),
                          _mm256_and_si256(_mm256_srli_epi16(qh, 2), high_pair_))};
      for (int run = 0; run < 4; ++run) {
        const int s = 8 * half + 2 * run;  // the run's two 16-element sub-blocks
        const __m256i sc =
            _mm256_set_m128i(_mm_set1_epi16(blk.scales[s + 1]), _mm_set1_epi16(blk.scales[s]));
        for (int t = 0; t < T; ++t) {
          const int8_t* xq = xs[t]->qs + 128 * half + 32 * run;
          isum[t] = _mm256_add_epi32(isum[t], scaled_dot(run_q[run], load32(xq), sc));
        }
      }
    }
    const float d = f16_[blk.d];
    for (int t = 0; t < T; ++t) {
      acc[t].sum =
          _mm256_fmadd_ps(_mm256_cvtepi32_ps(isum[t]), _mm256_set1_ps(d * xs[t]->d), acc[t].sum);
    }
  }

  const __m256i nibble_ = _mm256_set1_epi8(0x0f);
  const __m256i high_pair_ = _mm256_set1_epi8(0x30);
};

}  // namespace

TileList avx2::k_quant_tiles() {
  static constexpr TileEntry kTiles[] = {
      TileEntry{ElementType::kQ4_K, run_block_tile<Q4KAvx2<Q4KRuns>>},
      TileEntry{ElementType::kQ5_K, run_block_tile<Q4KAvx2<Q5KRuns>>},
      TileEntry{ElementType::kQ6_K, run_block_tile<Q6KAvx2>},
  };
  return kTiles;
}

}  // namespace ingot::kernels
