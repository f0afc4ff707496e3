#pragma once
// Which vector path the ops (norms, activations, attention) take on this
// CPU, decided once per process. INGOT_SCALAR_OPS=1 forces the scalar
// references, for comparing whole forward passes.

namespace ingot::kernels {

bool use_avx512();
// AVX2 with FMA and F16C, for the ops that have an AVX2 path (attention).
bool use_avx2();

}  // namespace ingot::kernels
