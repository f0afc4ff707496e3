#include "kernels/ops_hadamard.h"

#include <cmath>

namespace ingot::kernels {

// The fast transform: log2(n) passes of butterflies instead of a product
// with the n x n matrix.
void hadamard_rotate(float* x, int64_t count, int64_t n) {
  const float scale = 1.0f / std::sqrt(float(n));
  for (float* run = x; run < x + count; run += n) {
    for (int64_t half = 1; half < n; half *= 2) {
      for (int64_t i = 0; i < n; i += 2 * half) {
        for (int64_t j = i; j < i + half; ++j) {
          const float a = run[j], b = run[j + half];
          run[j] = a + b;
          run[j + half] = a - b;
        }
      }
    }
    for (int64_t i = 0; i < n; ++i) run[i] *= scale;
  }
}

}  // namespace ingot::kernels
