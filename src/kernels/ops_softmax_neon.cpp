#include "kernels/ops_float_shape.h"
#include "kernels/ops_softmax.h"
#include "kernels/ops_vector_math_neon.h"

namespace ingot::kernels::neon {

void softmax(float* x, int64_t n) {
  softmax_lanes<Floats>(x, n);
}

}  // namespace ingot::kernels::neon
