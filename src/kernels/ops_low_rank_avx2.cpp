#include <immintrin.h>

#include "kernels/ops_low_rank_shape.h"

namespace ingot::kernels::avx2 {
namespace {

struct Avx2Lanes {
  using Reg = __m256;
  static constexpr int64_t kLanes = 8;
  static Reg load(const float* p) { return _mm256_loadu_ps(p); }
  static void store(float* p, Reg v) { _mm256_storeu_ps(p, v); }
  static Reg load_f16(const uint16_t* p) {
    return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
  }
  static Reg broadcast(float x) { return _mm256_set1_ps(x); }
  static Reg fma(Reg a, Reg b, Reg c) { return _mm256_fmadd_ps(a, b, c); }
};

}  // namespace

void add_low_rank(const float* m, int64_t rank, const uint16_t* b, int64_t begin, int64_t end,
                  float* y) {
  add_low_rank_lanes<Avx2Lanes>(m, rank, b, begin, end, y);
}

}  // namespace ingot::kernels::avx2
