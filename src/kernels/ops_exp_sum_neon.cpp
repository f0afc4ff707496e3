// The exponential sums on NEON, two doubles a vector, by the AVX-512 path's
// method (exp_taylor.h). NEON has no scalef, so 2^k is applied as 2^(k/2) 2^(k - k/2),
// two normal powers, so results that underflow to subnormals or zero round
// once, as std::exp's do.
#include <arm_neon.h>

#include "kernels/exp_taylor.h"
#include "kernels/ops_exp_sum.h"

namespace ingot::kernels::neon {
namespace {

// 2^k for k in the normal exponents' range.
inline float64x2_t power_of_two(int64x2_t k) {
  return vreinterpretq_f64_s64(vshlq_n_s64(vaddq_s64(k, vdupq_n_s64(1023)), 52));
}

inline float64x2_t exp_pd(float64x2_t d) {
  using namespace exp_taylor;
  // NaN passes through max, min and the arithmetic as NaN.
  const float64x2_t x = vminq_f64(vmaxq_f64(d, vdupq_n_f64(-kLimit)), vdupq_n_f64(kLimit));
  const float64x2_t k = vrndnq_f64(vmulq_f64(x, vdupq_n_f64(kLog2E)));
  float64x2_t r = vfmsq_f64(x, k, vdupq_n_f64(kLn2High));
  r = vfmsq_f64(r, k, vdupq_n_f64(kLn2Low));
  float64x2_t p = vdupq_n_f64(kInverseFactorials[0]);
  for (int i = 1; i < kTerms; ++i) p = vfmaq_f64(vdupq_n_f64(kInverseFactorials[i]), p, r);
  const int64x2_t k_int = vcvtq_s64_f64(k);
  const int64x2_t k_half = vshrq_n_s64(k_int, 1);
  return vmulq_f64(vmulq_f64(p, power_of_two(k_half)), power_of_two(vsubq_s64(k_int, k_half)));
}

// Elements [i, i + 4) of x minus shift, in float (as the scalar path takes
// it), widened to two vectors of doubles.
inline void shifted(const float* x, float shift, float64x2_t& low, float64x2_t& high) {
  const float32x4_t v = vsubq_f32(vld1q_f32(x), vdupq_n_f32(shift));
  low = vcvt_f64_f32(vget_low_f32(v));
  high = vcvt_high_f64_f32(v);
}

}  // namespace

double sum_exp(const float* x, int64_t n, float shift) {
  float64x2_t sum_low = vdupq_n_f64(0.0), sum_high = vdupq_n_f64(0.0);
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    float64x2_t low, high;
    shifted(x + i, shift, low, high);
    sum_low = vaddq_f64(sum_low, exp_pd(low));
    sum_high = vaddq_f64(sum_high, exp_pd(high));
  }
  double sum = vaddvq_f64(vaddq_f64(sum_low, sum_high));
  double tail[4];
  exp_terms(x + i, n - i, shift, tail);
  for (int64_t j = 0; j < n - i; ++j) sum += tail[j];
  return sum;
}

void exp_terms(const float* x, int64_t n, float shift, double* out) {
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    float64x2_t low, high;
    shifted(x + i, shift, low, high);
    vst1q_f64(out + i, exp_pd(low));
    vst1q_f64(out + i + 2, exp_pd(high));
  }
  if (i == n) return;
  float last[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  for (int64_t j = 0; j < n - i; ++j) last[j] = x[i + j];
  float64x2_t low, high;
  shifted(last, shift, low, high);
  double terms[4];
  vst1q_f64(terms, exp_pd(low));
  vst1q_f64(terms + 2, exp_pd(high));
  for (int64_t j = 0; j < n - i; ++j) out[i + j] = terms[j];
}

}  // namespace ingot::kernels::neon
