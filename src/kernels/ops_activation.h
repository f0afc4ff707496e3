#pragma once
// Elementwise activations of the feed-forward block.
//   silu(x)  = x / (1 + e^-x)
//   gelu(x)  = x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))   (tanh form)
//   swiglu   = silu(gate) * up, the gated unit of Llama and Qwen
//   swiglu_clamped = g sigmoid(alpha g) (u + 1) with g = min(gate, limit)
//            and u = clamp(up, -limit, limit), gpt-oss's experts' unit

#include <cstdint>

namespace ingot::kernels {

void silu(const float* x, float* y, int64_t n);
void gelu(const float* x, float* y, int64_t n);
// out may alias gate or up.
void swiglu(const float* gate, const float* up, float* out, int64_t n);
// out may alias gate or up.
void swiglu_clamped(const float* gate, const float* up, float* out, int64_t n, float alpha,
                    float limit);

namespace scalar {
void silu(const float* x, float* y, int64_t n);
void gelu(const float* x, float* y, int64_t n);
void swiglu(const float* gate, const float* up, float* out, int64_t n);
}  // namespace scalar

}  // namespace ingot::kernels
