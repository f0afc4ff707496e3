// AVX2 kernels for the 32-element block types, one block per step: Q4_0,
// Q5_0, Q8_0, IQ4_NL and MXFP4 against Q8_0 activations, Q4_1 and Q5_1 against Q8_1. vpmaddubsw
// multiplies unsigned by signed bytes into 16-bit pairs and vpmaddwd sums those into 32-bit lanes.
// Q4_0 nibbles are unsigned already (8 * block sum of the activations is taken back out), likewise
// Q5_0's 5-bit values (16 * block sum); Q8_0 uses |w| and x with w's sign; Q4_1/Q5_1 add their min
// times Q8_1's s = d_x * sum. Per-block integer sums are scaled by d_w * d_x in float, as in the
// scalar reference.
#include <immintrin.h>

#include <cstring>

#include "kernels/block_formats.h"
#include "kernels/f16_table.h"
#include "kernels/shapes/block_tile_shape.h"
#include "kernels/x86/horizontal_reduce_avx2.h"
#include "kernels/x86/matmul_kernels_avx2.h"

namespace ingot::kernels {
namespace {

inline __m256i load32(const int8_t* p) {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
}

// Sum of pairs of 16-bit products into eight 32-bit lanes.
inline __m256i widen_pairs(__m256i products16) {
  return _mm256_madd_epi16(products16, _mm256_set1_epi16(1));
}

// 16 bytes of nibbles as 32 unsigned bytes in element order.
inline __m256i nibbles(const uint8_t* qs) {
  const __m128i q = _mm_loadu_si128(reinterpret_cast<const __m128i*>(qs));
  const __m256i both = _mm256_inserti128_si256(_mm256_castsi128_si256(q), _mm_srli_epi16(q, 4), 1);
  return _mm256_and_si256(both, _mm256_set1_epi8(0x0f));
}

// 0x10 in byte j where bit j of the block's qh is set.
inline __m256i fifth_bits(const uint8_t* qh_bytes) {
  uint32_t qh;
  std::memcpy(&qh, qh_bytes, 4);
  // Byte j takes byte j / 8 of qh, then tests its bit j % 8.
  const __m256i spread =
      _mm256_shuffle_epi8(_mm256_set1_epi32(static_cast<int>(qh)),
                          _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2,
                                           2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3));
  const __m256i bit = _mm256_set1_epi64x(static_cast<int64_t>(0x8040201008040201ull));
  const __m256i set = _mm256_cmpeq_epi8(_mm256_and_si256(spread, bit), bit);
  return _mm256_and_si256(set, _mm256_set1_epi8(0x10));
}

// Unsigned quants with an offset: offset * (activation block sum) comes back out.
template <int kOffset>
inline __m256i offset_dot(__m256i w, __m256i x, int x_sum) {
  const __m256i sums = widen_pairs(_mm256_maddubs_epi16(w, x));
  if constexpr (kOffset == 0) return sums;
  return _mm256_add_epi32(sums, _mm256_setr_epi32(-kOffset * x_sum, 0, 0, 0, 0, 0, 0, 0));
}

// |w| times x with w's sign: signed weights without an offset.
inline __m256i signed_dot(__m256i w, __m256i x) {
  return widen_pairs(_mm256_maddubs_epi16(_mm256_sign_epi8(w, w), _mm256_sign_epi8(x, w)));
}

// The scale of most types: an F16 d.
struct F16Scale {
  template <class Block>
  static float scale(const float* f16, const Block& b) {
    return f16[b.d];
  }
};

struct Q4_0Dot : F16Scale {
  using Block = BlockQ4_0;
  using XBlock = BlockQ8_0;
  static constexpr bool kHasMin = false;
  static __m256i prepare(const Block& b) { return nibbles(b.qs); }
  static __m256i dot(__m256i w, __m256i x, int x_sum) { return offset_dot<8>(w, x, x_sum); }
};

struct Q5_0Dot : F16Scale {
  using Block = BlockQ5_0;
  using XBlock = BlockQ8_0;
  static constexpr bool kHasMin = false;
  static __m256i prepare(const Block& b) {
    return _mm256_or_si256(nibbles(b.qs), fifth_bits(b.qh));
  }
  static __m256i dot(__m256i w, __m256i x, int x_sum) { return offset_dot<16>(w, x, x_sum); }
};

struct Q4_1Dot : F16Scale {
  using Block = BlockQ4_1;
  using XBlock = BlockQ8_1;
  static constexpr bool kHasMin = true;
  static __m256i prepare(const Block& b) { return nibbles(b.qs); }
  static __m256i dot(__m256i w, __m256i x, int) { return offset_dot<0>(w, x, 0); }
};

struct Q5_1Dot : F16Scale {
  using Block = BlockQ5_1;
  using XBlock = BlockQ8_1;
  static constexpr bool kHasMin = true;
  static __m256i prepare(const Block& b) {
    return _mm256_or_si256(nibbles(b.qs), fifth_bits(b.qh));
  }
  static __m256i dot(__m256i w, __m256i x, int) { return offset_dot<0>(w, x, 0); }
};

struct Q8_0Dot : F16Scale {
  using Block = BlockQ8_0;
  using XBlock = BlockQ8_0;
  static constexpr bool kHasMin = false;
  static __m256i prepare(const Block& b) { return load32(b.qs); }
  static __m256i dot(__m256i w, __m256i x, int) { return signed_dot(w, x); }
};

// The 4-bit table types: one byte shuffle turns nibbles into the table's
// signed values (kIq4NlValues, kMxfp4Values), then as Q8_0.
struct IQ4_NLDot : F16Scale {
  using Block = BlockIQ4_NL;
  using XBlock = BlockQ8_0;
  static constexpr bool kHasMin = false;
  static __m256i prepare(const Block& b) {
    const __m256i table = _mm256_broadcastsi128_si256(
        _mm_setr_epi8(-127, -104, -83, -65, -49, -35, -22, -10, 1, 13, 25, 38, 53, 69, 89, 113));
    return _mm256_shuffle_epi8(table, nibbles(b.qs));
  }
  static __m256i dot(__m256i w, __m256i x, int) { return signed_dot(w, x); }
};

struct MXFP4Dot {
  using Block = BlockMXFP4;
  using XBlock = BlockQ8_0;
  static constexpr bool kHasMin = false;
  static __m256i prepare(const Block& b) {
    const __m256i table = _mm256_broadcastsi128_si256(
        _mm_setr_epi8(0, 1, 2, 3, 4, 6, 8, 12, 0, -1, -2, -3, -4, -6, -8, -12));
    return _mm256_shuffle_epi8(table, nibbles(b.qs));
  }
  static __m256i dot(__m256i w, __m256i x, int) { return signed_dot(w, x); }
  static float scale(const float*, const Block& b) { return mxfp4_scale(b.e); }
};

template <class D>
struct Q8FamilyAvx2 {
  using Block = typename D::Block;
  using XBlock = typename D::XBlock;
  static constexpr int kBlockElems = kQK;
  static constexpr int kRows = 4;
  static constexpr int kTokens = 4;
  static constexpr int kDecodeRows = 4;

  // One token's activation block: its quants loaded, its scale and the
  // sum of its quants (for the offset types).
  struct XStep {
    const XBlock* block;
    __m256i q;
    float d;
    int sum;
  };
  // The min's term (Q4_1, Q5_1) is summed apart in float, as the scalar
  // reference does.
  struct Acc {
    __m256 sum = _mm256_setzero_ps();
    float mins = 0;
  };
  static float total(const Acc& acc) { return horizontal_sum(acc.sum) + acc.mins; }

  XStep activations(const PackedActivations& x, int64_t token, int64_t b) const {
    const XBlock* block = activation_block<XBlock>(x, token, b);
    return {block, load32(block->qs), f16_[block->d], x.block_sums(token)[b]};
  }

  template <int T>
  void accumulate(const Block& blk, const XStep (&xs)[T], Acc (&acc)[T]) const {
    const __m256i wq = D::prepare(blk);
    const float dw = D::scale(f16_, blk);
    for (int t = 0; t < T; ++t) {
      const __m256i dot = D::dot(wq, xs[t].q, xs[t].sum);
      acc[t].sum =
          _mm256_fmadd_ps(_mm256_cvtepi32_ps(dot), _mm256_set1_ps(dw * xs[t].d), acc[t].sum);
      if constexpr (D::kHasMin) acc[t].mins += f16_[blk.m] * f16_[xs[t].block->s];
    }
  }

  const float* f16_ = f16_table();
};

}  // namespace

TileList avx2::q8_0_family_tiles() {
  static constexpr TileEntry kTiles[] = {
      TileEntry{ElementType::kQ4_0, run_block_tile<Q8FamilyAvx2<Q4_0Dot>>},
      TileEntry{ElementType::kQ4_1, run_block_tile<Q8FamilyAvx2<Q4_1Dot>>},
      TileEntry{ElementType::kQ5_0, run_block_tile<Q8FamilyAvx2<Q5_0Dot>>},
      TileEntry{ElementType::kQ5_1, run_block_tile<Q8FamilyAvx2<Q5_1Dot>>},
      TileEntry{ElementType::kIQ4_NL, run_block_tile<Q8FamilyAvx2<IQ4_NLDot>>},
      TileEntry{ElementType::kMXFP4, run_block_tile<Q8FamilyAvx2<MXFP4Dot>>},
      TileEntry{ElementType::kQ8_0, run_block_tile<Q8FamilyAvx2<Q8_0Dot>>},
  };
  return kTiles;
}

}  // namespace ingot::kernels
