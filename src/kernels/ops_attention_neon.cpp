#include "kernels/ops_attention.h"
#include "kernels/ops_attention_shape.h"
#include "kernels/ops_vector_math_neon.h"

namespace ingot::kernels::neon {

void attention_accumulate(const float* q, int64_t n_q, const uint16_t* keys, int64_t key_stride,
                          const uint16_t* values, int64_t n, int64_t head_dim, ScoreScale scale,
                          AttentionState* states, float* outputs) {
  attention_accumulate_lanes<Floats>(q, n_q, keys, key_stride, values, n, head_dim, scale, states,
                                     outputs);
}

}  // namespace ingot::kernels::neon
