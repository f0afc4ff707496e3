// Widening quantized KV tiles to F16 (kv_tiles_shape.h), eight lanes at a
// time.
#include <immintrin.h>

#include "kernels/kv_tiles.h"
#include "kernels/shapes/kv_tiles_shape.h"

namespace ingot::kernels::avx2 {
namespace {

struct KvLanes {
  static constexpr int64_t kLanes = 8;
  using Q = __m256i;
  using S = __m128i;

  static Q i8s(const int8_t* p) { return _mm256_cvtepi8_epi32(bytes(p)); }
  static Q low_nibbles_less_8(const uint8_t* p) {
    return less_8(_mm_and_si128(bytes(p), _mm_set1_epi8(0x0F)));
  }
  static Q high_nibbles_less_8(const uint8_t* p) {
    return less_8(_mm_and_si128(_mm_srli_epi16(bytes(p), 4), _mm_set1_epi8(0x0F)));
  }
  static S scales(const uint16_t* p) {
    return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  }
  static S scale(uint16_t d) { return _mm_set1_epi16(static_cast<short>(d)); }
  static void store_scaled(uint16_t* to, Q quants, S scales) {
    const __m256 product = _mm256_mul_ps(_mm256_cvtph_ps(scales), _mm256_cvtepi32_ps(quants));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(to),
                     _mm256_cvtps_ph(product, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
  }

 private:
  // Eight bytes, in the low half.
  static __m128i bytes(const void* p) { return _mm_loadl_epi64(static_cast<const __m128i*>(p)); }
  static Q less_8(__m128i nibbles) {
    return _mm256_sub_epi32(_mm256_cvtepu8_epi32(nibbles), _mm256_set1_epi32(8));
  }
};

}  // namespace

WidenKeysFn widen_keys_fn(ElementType type) {
  return widen_keys_lanes<KvLanes>(type);
}

WidenValuesFn widen_values_fn(ElementType type) {
  return widen_values_lanes<KvLanes>(type);
}

}  // namespace ingot::kernels::avx2
