#pragma once
// Seeded random tensor contents: weights drawn from a normal distribution
// (std 0.02, like a freshly initialised transformer), norms all ones.
// Each tensor's stream depends only on the seed and the tensor's name, so
// a file is reproducible and tensors can be produced in any order.

#include <cstdint>

#include "gguf/writer.h"
#include "kernels/element_type.h"
#include "tensor_plan.h"

namespace ingot::synth {

// A filler producing `tensor` encoded as `type` row by row; `type` must be
// one the kernels can quantize to.
gguf::GgufWriter::Filler random_filler(const PlannedTensor& tensor, kernels::ElementType type,
                                       uint64_t seed);

}  // namespace ingot::synth
