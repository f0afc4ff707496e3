#pragma once
// A path's row ops (activations, RMSNorm, softmax, exp sums, the gated
// delta rule, attention, low-rank deltas): each op's shape, written once
// (the *_shape.h beside this), instantiated on the path's Floats policy V
// and put in its kernel table. Include only from a path's kernel_table_*.cpp,
// which is compiled for the path's instructions.

#include "kernels/kernel_table.h"
#include "kernels/shapes/ops_attention_shape.h"
#include "kernels/shapes/ops_delta_rule_shape.h"
#include "kernels/shapes/ops_exp_sum_shape.h"
#include "kernels/shapes/ops_float_shape.h"
#include "kernels/shapes/ops_low_rank_shape.h"

namespace ingot::kernels {
namespace {

template <class V>
void add_row_ops(KernelTable& t) {
  t.rms_norm = rms_norm_rows<V>;
  t.silu = silu_lanes<V>;
  t.gelu = gelu_lanes<V>;
  t.swiglu = swiglu_lanes<V>;
  t.softmax = softmax_lanes<V>;
  t.sum_exp = sum_exp_lanes<V>;
  t.exp_terms = exp_terms_lanes<V>;
  t.delta_rule_step = delta_rule_step_lanes<V>;
  t.delta_rule_chunk = delta_rule_chunk_over_rows<LaneRows<V>>;
  t.attention_accumulate = attention_accumulate_lanes<V>;
  t.add_low_rank = add_low_rank_lanes<V>;
}

}  // namespace
}  // namespace ingot::kernels
