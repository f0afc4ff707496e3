#pragma once
// The AVX-512 path's own chunk of the gated delta rule (the step and the
// other paths' chunks are ops_delta_rule_shape.h's): its kernel table's
// entry, declared for kernel_table_avx512.cpp alone.

#include <cstdint>

#include "kernels/ops_delta_rule.h"

namespace ingot::kernels::avx512 {

void delta_rule_chunk(float* state, const DeltaRuleRun& run, int64_t n);

}  // namespace ingot::kernels::avx512
