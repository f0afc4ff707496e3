// Widening quantized KV tiles to F16 (kv_tiles_shape.h), sixteen lanes at
// a time.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include <immintrin.h>

#include "kernels/kv_tiles.h"
#include "kernels/shapes/kv_tiles_shape.h"

namespace ingot::kernels::avx512 {
namespace {

struct KvLanes {
  static constexpr int64_t kLanes = 16;
  using Q = __m512i;
  using S = __m256i;

  static Q i8s(const int8_t* p) { return _mm512_cvtepi8_epi32(bytes(p)); }
  static Q low_nibbles_less_8(const uint8_t* p) {
    return less_8(_mm_and_si128(bytes(p), _mm_set1_epi8(0x0F)));
  }
  static Q high_nibbles_less_8(const uint8_t* p) {
    return less_8(_mm_and_si128(_mm_srli_epi16(bytes(p), 4), _mm_set1_epi8(0x0F)));
  }
  static S scales(const uint16_t* p) {
    return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  }
  static S scale(uint16_t d) { return _mm256_set1_epi16(static_cast<short>(d)); }
  static void store_scaled(uint16_t* to, Q quants, S scales) {
    const __m512 product = _mm512_mul_ps(_mm512_cvtph_ps(scales), _mm512_cvtepi32_ps(quants));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(to),
                        _mm512_cvtps_ph(product, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
  }

 private:
  static __m128i bytes(const void* p) { return _mm_loadu_si128(static_cast<const __m128i*>(p)); }
  static Q less_8(__m128i nibbles) {
    return _mm512_sub_epi32(_mm512_cvtepu8_epi32(nibbles), _mm512_set1_epi32(8));
  }
};

}  // namespace

WidenKeysFn widen_keys_fn(ElementType type) {
  return widen_keys_lanes<KvLanes>(type);
}

WidenValuesFn widen_values_fn(ElementType type) {
  return widen_values_lanes<KvLanes>(type);
}

}  // namespace ingot::kernels::avx512
