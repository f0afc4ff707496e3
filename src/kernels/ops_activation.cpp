#include "kernels/ops_activation.h"

#include <algorithm>
#include <cmath>

#include "kernels/kernel_table.h"

namespace ingot::kernels {

namespace scalar {

void silu(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] = x[i] / (1.0f + std::exp(-x[i]));
}

void gelu(const float* x, float* y, int64_t n) {
  constexpr float kSqrt2OverPi = 0.7978845608028654f;
  for (int64_t i = 0; i < n; ++i) {
    const float v = x[i];
    y[i] = 0.5f * v * (1.0f + std::tanh(kSqrt2OverPi * (v + 0.044715f * v * v * v)));
  }
}

void swiglu(const float* gate, const float* up, float* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = gate[i] / (1.0f + std::exp(-gate[i])) * up[i];
}

}  // namespace scalar

// SiLU, SwiGLU and GELU run over the whole feed-forward width of every
// token, one exp (or tanh) each: enough to show in a profile, so they have a
// vector path. The clamped SwiGLU (gpt-oss's experts, a few hundred of a
// token's features each) stays scalar for now.
void silu(const float* x, float* y, int64_t n) {
  active_kernels().silu(x, y, n);
}

void gelu(const float* x, float* y, int64_t n) {
  active_kernels().gelu(x, y, n);
}

void swiglu(const float* gate, const float* up, float* out, int64_t n) {
  active_kernels().swiglu(gate, up, out, n);
}

// As ggml computes it, one expf per element.
void swiglu_clamped(const float* gate, const float* up, float* out, int64_t n, float alpha,
                    float limit) {
  for (int64_t i = 0; i < n; ++i) {
    const float g = std::min(gate[i], limit);
    const float u = std::clamp(up[i], -limit, limit);
    out[i] = g / (1.0f + std::exp(alpha * -g)) * (u + 1.0f);
  }
}

}  // namespace ingot::kernels
