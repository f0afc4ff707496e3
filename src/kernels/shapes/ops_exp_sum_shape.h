#pragma once
// Sampling's exponential sums (ops_exp_sum.h) written once for every
// vector width over ops_float_shape.h's Floats policy, which adds exp_d
// (e^d in double, exp_taylor.h's method) and store_d: a register of floats
// minus the shift, in float as the scalar path takes it, widened to two
// registers of doubles. Include only from the SIMD files that define V.

#include <cstdint>

namespace ingot::kernels {
namespace {

// The two halves of x's next register minus shift, as doubles.
template <class V>
inline void shifted(typename V::F x, typename V::F shift, typename V::D& low, typename V::D& high) {
  const typename V::F v = V::sub(x, shift);
  low = V::widen_low(v);
  high = V::widen_high(v);
}

template <class V>
void exp_terms_lanes(const float* x, int64_t n, float shift, double* out) {
  constexpr int64_t kHalf = V::kLanes / 2;
  const typename V::F s = V::broadcast(shift);
  typename V::D low, high;
  int64_t i = 0;
  for (; i + V::kLanes <= n; i += V::kLanes) {
    shifted<V>(V::load(x + i), s, low, high);
    V::store_d(out + i, V::exp_d(low));
    V::store_d(out + i + kHalf, V::exp_d(high));
  }
  if (i == n) return;
  shifted<V>(V::load_part(x + i, n - i, 0.0f), s, low, high);
  double terms[V::kLanes];
  V::store_d(terms, V::exp_d(low));
  V::store_d(terms + kHalf, V::exp_d(high));
  for (int64_t j = 0; j < n - i; ++j) out[i + j] = terms[j];
}

template <class V>
double sum_exp_lanes(const float* x, int64_t n, float shift) {
  const typename V::F s = V::broadcast(shift);
  typename V::D sum_low = V::zero_d(), sum_high = V::zero_d();
  int64_t i = 0;
  for (; i + V::kLanes <= n; i += V::kLanes) {
    typename V::D low, high;
    shifted<V>(V::load(x + i), s, low, high);
    sum_low = V::add_d(sum_low, V::exp_d(low));
    sum_high = V::add_d(sum_high, V::exp_d(high));
  }
  double sum = V::reduce_add_d(V::add_d(sum_low, sum_high));
  double tail[V::kLanes];
  exp_terms_lanes<V>(x + i, n - i, shift, tail);
  for (int64_t j = 0; j < n - i; ++j) sum += tail[j];
  return sum;
}

}  // namespace
}  // namespace ingot::kernels
