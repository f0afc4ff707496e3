// GCC 12 flags the deliberately undefined lanes inside its own AVX-512
// intrinsics (cvtph_ps) as maybe-uninitialized: a false positive.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include <immintrin.h>

#include "kernels/ops_low_rank_shape.h"

namespace ingot::kernels::avx512 {
namespace {

struct Avx512Lanes {
  using Reg = __m512;
  static constexpr int64_t kLanes = 16;
  static Reg load(const float* p) { return _mm512_loadu_ps(p); }
  static void store(float* p, Reg v) { _mm512_storeu_ps(p, v); }
  static Reg load_f16(const uint16_t* p) {
    return _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
  }
  static Reg broadcast(float x) { return _mm512_set1_ps(x); }
  static Reg fma(Reg a, Reg b, Reg c) { return _mm512_fmadd_ps(a, b, c); }
};

}  // namespace

void add_low_rank(const float* m, int64_t rank, const uint16_t* b, int64_t begin, int64_t end,
                  float* y) {
  add_low_rank_lanes<Avx512Lanes>(m, rank, b, begin, end, y);
}

}  // namespace ingot::kernels::avx512
