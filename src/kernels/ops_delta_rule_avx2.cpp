// The gated delta rule on AVX2: the step and the chunk of
// ops_delta_rule_shape.h over eight lanes.
#include "kernels/ops_delta_rule.h"
#include "kernels/ops_delta_rule_shape.h"
#include "kernels/ops_vector_math_avx2.h"

namespace ingot::kernels::avx2 {

void delta_rule_step(float* state, const float* q, const float* k, const float* v, float log_decay,
                     float beta, int64_t n, float* out) {
  delta_rule_step_lanes<Floats>(state, q, k, v, log_decay, beta, n, out);
}

void delta_rule_chunk(float* state, const DeltaRuleRun& run, int64_t n) {
  delta_rule_chunk_over_rows<LaneRows<Floats>>(state, run, n);
}

}  // namespace ingot::kernels::avx2
