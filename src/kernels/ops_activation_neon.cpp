#include <arm_neon.h>

#include "kernels/ops_activation.h"
#include "kernels/ops_vector_math_neon.h"

namespace ingot::kernels::neon {
namespace {

// y = f(x) four lanes at a time, the tail through a zeroed vector.
template <class F>
void map_lanes(const float* x, float* y, int64_t n, F f) {
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) vst1q_f32(y + i, f(vld1q_f32(x + i)));
  if (i < n) store_tail(y + i, f(load_tail(x + i, n - i)), n - i);
}

}  // namespace

void silu(const float* x, float* y, int64_t n) {
  map_lanes(x, y, n, [](float32x4_t v) { return silu_ps(v); });
}

void gelu(const float* x, float* y, int64_t n) {
  map_lanes(x, y, n, [](float32x4_t v) { return gelu_ps(v); });
}

void swiglu(const float* gate, const float* up, float* out, int64_t n) {
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    vst1q_f32(out + i, vmulq_f32(silu_ps(vld1q_f32(gate + i)), vld1q_f32(up + i)));
  }
  if (i < n) {
    const float32x4_t g = silu_ps(load_tail(gate + i, n - i));
    store_tail(out + i, vmulq_f32(g, load_tail(up + i, n - i)), n - i);
  }
}

}  // namespace ingot::kernels::neon
