#pragma once
// The float ops that walk rows lane by lane (SiLU, GELU, SwiGLU, RMSNorm,
// softmax), written once for every vector width. V gives the float
// register F and its kLanes, the double register D that holds half of
// them, and:
//   load, store            a whole register
//   load_part, store_part  the first `count` (< kLanes) lanes; load_part
//                          fills the others with `fill`
//   first(v, count)        v with the lanes from `count` on set to 0
//   broadcast, add, sub, mul, max, fmadd (a b + c), fnmadd (c - a b),
//   reduce_add, reduce_max
//   exp, silu, gelu        the instruction set's vector math
//   widen_low, widen_high  the low and high halves of F as D
//   fmadd_d, add_d, zero_d, reduce_add_d
// Include only from the SIMD files (*_avx2.cpp, *_avx512.cpp, *_neon.cpp)
// that define V; everything here is in an unnamed namespace so that each
// gets its own copy for its instructions.

#include <cmath>
#include <cstdint>

namespace ingot::kernels {
namespace {

// y = f(x) a register at a time, the tail through a part.
template <class V, class Fn>
inline void map_lanes(const float* x, float* y, int64_t n, Fn f) {
  int64_t i = 0;
  for (; i + V::kLanes <= n; i += V::kLanes) V::store(y + i, f(V::load(x + i)));
  if (i < n) V::store_part(y + i, f(V::load_part(x + i, n - i, 0.0f)), n - i);
}

template <class V>
void silu_lanes(const float* x, float* y, int64_t n) {
  map_lanes<V>(x, y, n, [](typename V::F v) { return V::silu(v); });
}

template <class V>
void gelu_lanes(const float* x, float* y, int64_t n) {
  map_lanes<V>(x, y, n, [](typename V::F v) { return V::gelu(v); });
}

template <class V>
void swiglu_lanes(const float* gate, const float* up, float* out, int64_t n) {
  int64_t i = 0;
  for (; i + V::kLanes <= n; i += V::kLanes) {
    V::store(out + i, V::mul(V::silu(V::load(gate + i)), V::load(up + i)));
  }
  if (i < n) {
    const int64_t count = n - i;
    const typename V::F g = V::silu(V::load_part(gate + i, count, 0.0f));
    V::store_part(out + i, V::mul(g, V::load_part(up + i, count, 0.0f)), count);
  }
}

// The squares of a register's floats, widened to double and added into
// two accumulators (the sum runs in double, as in the scalar path).
template <class V>
inline void add_squares(typename V::F v, typename V::D& low, typename V::D& high) {
  const typename V::D lo = V::widen_low(v), hi = V::widen_high(v);
  low = V::fmadd_d(lo, lo, low);
  high = V::fmadd_d(hi, hi, high);
}

template <class V>
double sum_of_squares(const float* x, int64_t n) {
  typename V::D acc[4] = {V::zero_d(), V::zero_d(), V::zero_d(), V::zero_d()};
  int64_t i = 0;
  for (; i + 2 * V::kLanes <= n; i += 2 * V::kLanes) {
    add_squares<V>(V::load(x + i), acc[0], acc[1]);
    add_squares<V>(V::load(x + i + V::kLanes), acc[2], acc[3]);
  }
  for (; i < n; i += V::kLanes) {
    const int64_t count = n - i;
    add_squares<V>(count >= V::kLanes ? V::load(x + i) : V::load_part(x + i, count, 0.0f), acc[0],
                   acc[1]);
  }
  return V::reduce_add_d(V::add_d(V::add_d(acc[0], acc[1]), V::add_d(acc[2], acc[3])));
}

template <class V>
void rms_norm_rows(const float* x, const float* weight, float* y, int64_t n_rows, int64_t n,
                   float eps) {
  for (int64_t r = 0; r < n_rows; ++r, x += n, y += n) {
    const float mean = float(sum_of_squares<V>(x, n) / double(n));
    const typename V::F inverse_rms = V::broadcast(1.0f / std::sqrt(mean + eps));
    int64_t i = 0;
    for (; i + V::kLanes <= n; i += V::kLanes) {
      V::store(y + i, V::mul(V::mul(V::load(x + i), inverse_rms), V::load(weight + i)));
    }
    if (i < n) {
      const int64_t count = n - i;
      const typename V::F v = V::mul(V::load_part(x + i, count, 0.0f), inverse_rms);
      V::store_part(y + i, V::mul(v, V::load_part(weight + i, count, 0.0f)), count);
    }
  }
}

template <class V>
float max_of(const float* x, int64_t n) {
  typename V::F max = V::broadcast(-INFINITY);
  int64_t i = 0;
  for (; i + V::kLanes <= n; i += V::kLanes) max = V::max(max, V::load(x + i));
  if (i < n) max = V::max(max, V::load_part(x + i, n - i, -INFINITY));
  return V::reduce_max(max);
}

template <class V>
void softmax_lanes(float* x, int64_t n) {
  if (n <= 0) return;
  const typename V::F max = V::broadcast(max_of<V>(x, n));
  typename V::F sum = V::broadcast(0.0f);
  int64_t i = 0;
  for (; i + V::kLanes <= n; i += V::kLanes) {
    const typename V::F e = V::exp(V::sub(V::load(x + i), max));
    V::store(x + i, e);
    sum = V::add(sum, e);
  }
  if (i < n) {
    const int64_t count = n - i;
    const typename V::F e = V::exp(V::sub(V::load_part(x + i, count, 0.0f), max));
    V::store_part(x + i, e, count);
    sum = V::add(sum, V::first(e, count));  // past the tail: e^(0 - max)
  }
  const typename V::F inverse_sum = V::broadcast(1.0f / V::reduce_add(sum));
  map_lanes<V>(x, x, n, [&](typename V::F v) { return V::mul(v, inverse_sum); });
}

}  // namespace
}  // namespace ingot::kernels
