#pragma once
// The --type presets and the element type each tensor gets under them.

#include <optional>
#include <string_view>

#include "kernels/element_type.h"
#include "tensor_plan.h"
#include "util/status.h"

namespace ingot::synth {

enum class WeightPreset { kF32, kF16, kQ8_0, kQ4_0, kQ4_K_M, kIQ4_NL, kIQ4_XS, kMXFP4 };

std::optional<WeightPreset> find_preset(std::string_view name);

// llama.cpp's general.file_type (enum llama_ftype) for a preset.
uint32_t file_type_id(WeightPreset preset);

// The element type of `tensor` under `preset`: norms and biases stay F32;
// Q4_K_M follows llama.cpp's mix (see weight_types.cpp); a row that is not
// a whole number of the chosen type's blocks falls back as llama.cpp does.
kernels::ElementType element_type_for(const PlannedTensor& tensor, WeightPreset preset,
                                      const Shape& shape);

// Converts one row of floats to `type` with the kernels' reference
// quantizers; `out` holds row_bytes(type, n).
Status encode_row(kernels::ElementType type, const float* row, int64_t n, uint8_t* out);

}  // namespace ingot::synth
