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

// --nextn echo: a prediction block that passes its token's embedding
// through (eh_proj keeps the embedding half as it is; the block's attention
// and feed-forward outputs are zero), so that through the tied output it
// drafts the token it was given. A model repeating a token accepts such
// drafts, which tests of speculative decoding need and random weights
// never give. Null for the tensors it leaves random.
gguf::GgufWriter::Filler echo_prediction_filler(const PlannedTensor& tensor,
                                                kernels::ElementType type);

}  // namespace ingot::synth
