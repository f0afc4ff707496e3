#pragma once
// Elementwise activations of the feed-forward block.
//   silu(x)  = x / (1 + e^-x)
//   gelu(x)  = x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))   (tanh form)
//   swiglu   = silu(gate) * up, the gated unit of Llama and Qwen

#include <cstdint>

namespace ingot::kernels {

void silu(const float* x, float* y, int64_t n);
void gelu(const float* x, float* y, int64_t n);
// out may alias gate or up.
void swiglu(const float* gate, const float* up, float* out, int64_t n);

namespace scalar {
void silu(const float* x, float* y, int64_t n);
void gelu(const float* x, float* y, int64_t n);
void swiglu(const float* gate, const float* up, float* out, int64_t n);
}  // namespace scalar

namespace avx512 {
void silu(const float* x, float* y, int64_t n);
void swiglu(const float* gate, const float* up, float* out, int64_t n);
}  // namespace avx512

}  // namespace ingot::kernels
