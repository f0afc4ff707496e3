// Widening quantized KV tiles to F16, sixteen lanes at a time: along the
// positions for keys (a tile row is one dimension of every position), along
// the dimensions for values.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include <immintrin.h>

#include "kernels/block_formats.h"
#include "kernels/kv_tiles.h"

namespace ingot::kernels::avx512 {
namespace {

constexpr int64_t kGroup = kQK;

// 16 products of an F16 scale and an integer quant, as F16.
inline __m256i scaled(__m512i quants, __m256i scales) {
  const __m512 product = _mm512_mul_ps(_mm512_cvtph_ps(scales), _mm512_cvtepi32_ps(quants));
  return _mm512_cvtps_ph(product, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
}

inline __m256i load_scales(const uint16_t* at) {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(at));
}

inline void store(uint16_t* at, __m256i halves) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(at), halves);
}

void widen_keys_q8_0(const std::byte* tile, int64_t head_dim, int64_t block_size, uint16_t* out) {
  const auto* quants = reinterpret_cast<const int8_t*>(tile);
  const auto* scales = reinterpret_cast<const uint16_t*>(tile + head_dim * block_size);
  for (int64_t d = 0; d < head_dim; ++d) {
    const uint16_t* scale = scales + d / kGroup * block_size;
    const int8_t* row = quants + d * block_size;
    for (int64_t j = 0; j < block_size; j += 16) {
      const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(row + j));
      store(out + d * block_size + j, scaled(_mm512_cvtepi8_epi32(bytes), load_scales(scale + j)));
    }
  }
}

// A row of block_size / 2 bytes holds positions i (low nibble) and
// i + block_size / 2 (high nibble).
void widen_keys_q4_0(const std::byte* tile, int64_t head_dim, int64_t block_size, uint16_t* out) {
  const auto* quants = reinterpret_cast<const uint8_t*>(tile);
  const int64_t half = block_size / 2;
  const auto* scales = reinterpret_cast<const uint16_t*>(tile + head_dim * half);
  const __m512i eight = _mm512_set1_epi32(8);
  const __m128i low_nibbles = _mm_set1_epi8(0x0F);
  for (int64_t d = 0; d < head_dim; ++d) {
    const uint16_t* scale = scales + d / kGroup * block_size;
    const uint8_t* row = quants + d * half;
    uint16_t* to = out + d * block_size;
    for (int64_t i = 0; i < half; i += 16) {
      const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(row + i));
      const __m128i low = _mm_and_si128(bytes, low_nibbles);
      const __m128i high = _mm_and_si128(_mm_srli_epi16(bytes, 4), low_nibbles);
      const __m512i first = _mm512_sub_epi32(_mm512_cvtepu8_epi32(low), eight);
      const __m512i second = _mm512_sub_epi32(_mm512_cvtepu8_epi32(high), eight);
      store(to + i, scaled(first, load_scales(scale + i)));
      store(to + half + i, scaled(second, load_scales(scale + half + i)));
    }
  }
}

inline __m256i broadcast_scale(uint16_t d) {
  return _mm256_set1_epi16(static_cast<short>(d));
}

void widen_values_q8_0(const std::byte* tile, int64_t head_dim, int64_t first, int64_t count,
                       uint16_t* out) {
  const auto* blocks = reinterpret_cast<const BlockQ8_0*>(tile);
  const int64_t per_row = head_dim / kGroup;
  for (int64_t r = first; r < first + count; ++r) {
    for (int64_t g = 0; g < per_row; ++g) {
      const BlockQ8_0& block = blocks[r * per_row + g];
      const __m256i scale = broadcast_scale(block.d);
      uint16_t* to = out + r * head_dim + g * kGroup;
      for (int64_t i = 0; i < kGroup; i += 16) {
        const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(block.qs + i));
        store(to + i, scaled(_mm512_cvtepi8_epi32(bytes), scale));
      }
    }
  }
}

void widen_values_q4_0(const std::byte* tile, int64_t head_dim, int64_t first, int64_t count,
                       uint16_t* out) {
  const auto* blocks = reinterpret_cast<const BlockQ4_0*>(tile);
  const int64_t per_row = head_dim / kGroup;
  const __m512i eight = _mm512_set1_epi32(8);
  const __m128i low_nibbles = _mm_set1_epi8(0x0F);
  for (int64_t r = first; r < first + count; ++r) {
    for (int64_t g = 0; g < per_row; ++g) {
      const BlockQ4_0& block = blocks[r * per_row + g];
      const __m256i scale = broadcast_scale(block.d);
      const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(block.qs));
      const __m128i low = _mm_and_si128(bytes, low_nibbles);
      const __m128i high = _mm_and_si128(_mm_srli_epi16(bytes, 4), low_nibbles);
      uint16_t* to = out + r * head_dim + g * kGroup;
      store(to, scaled(_mm512_sub_epi32(_mm512_cvtepu8_epi32(low), eight), scale));
      store(to + 16, scaled(_mm512_sub_epi32(_mm512_cvtepu8_epi32(high), eight), scale));
    }
  }
}

}  // namespace

// Tiles of whole vectors only: a block size that is a multiple of 32.
WidenKeysFn widen_keys_fn(ElementType type) {
  if (type == ElementType::kQ8_0) return widen_keys_q8_0;
  if (type == ElementType::kQ4_0) return widen_keys_q4_0;
  return nullptr;
}

WidenValuesFn widen_values_fn(ElementType type) {
  if (type == ElementType::kQ8_0) return widen_values_q8_0;
  if (type == ElementType::kQ4_0) return widen_values_q4_0;
  return nullptr;
}

}  // namespace ingot::kernels::avx512
