#include "weight_types.h"

#include <fmt/format.h>

#include "kernels/quantize.h"

namespace ingot::synth {
namespace {

using kernels::ElementType;

// llama.cpp's Q4_K_M gives a few tensors more bits: the output projection
// (or the tied embedding standing in for it) gets Q6_K, and so do attn_v and
// ffn_down in the first and last eighth of the layers and every third layer
// between (its use_more_bits rule). Everything else is Q4_K.
bool uses_more_bits(int64_t layer, int64_t layers) {
  return layer < layers / 8 || layer >= 7 * layers / 8 || (layer - layers / 8) % 3 == 2;
}

// The output projection, or the embedding when it doubles as one.
bool is_output_like(const PlannedTensor& tensor, const Shape& shape) {
  return tensor.role == TensorRole::kOutput ||
         (tensor.role == TensorRole::kEmbedding && shape.tied_output);
}

ElementType q4_k_m_type(const PlannedTensor& tensor, const Shape& shape) {
  if (is_output_like(tensor, shape)) return ElementType::kQ6_K;
  int64_t layers = shape.layers;
  switch (tensor.role) {
    case TensorRole::kAttentionV:
    case TensorRole::kFeedForwardDown:
      return uses_more_bits(tensor.layer, layers) ? ElementType::kQ6_K : ElementType::kQ4_K;
    default:
      return ElementType::kQ4_K;
  }
}

// When a row does not split into the type's blocks, llama.cpp falls back
// to a 32-element type of similar size, and to F16 when even that fails.
ElementType fallback_for_row(ElementType type, int64_t row) {
  if (kernels::row_bytes(type, row)) return type;
  ElementType fallback = type == ElementType::kQ6_K     ? ElementType::kQ8_0
                         : type == ElementType::kQ4_K   ? ElementType::kQ5_0
                         : type == ElementType::kIQ4_XS ? ElementType::kIQ4_NL
                                                        : type;
  if (kernels::row_bytes(fallback, row)) return fallback;
  return ElementType::kF16;
}

}  // namespace

std::optional<WeightPreset> find_preset(std::string_view name) {
  if (name == "f32") return WeightPreset::kF32;
  if (name == "f16") return WeightPreset::kF16;
  if (name == "q8_0") return WeightPreset::kQ8_0;
  if (name == "q4_0") return WeightPreset::kQ4_0;
  if (name == "q4_k_m") return WeightPreset::kQ4_K_M;
  if (name == "iq4_nl") return WeightPreset::kIQ4_NL;
  if (name == "iq4_xs") return WeightPreset::kIQ4_XS;
  if (name == "mxfp4") return WeightPreset::kMXFP4;
  return std::nullopt;
}

uint32_t file_type_id(WeightPreset preset) {
  switch (preset) {
    case WeightPreset::kF32:
      return 0;
    case WeightPreset::kF16:
      return 1;
    case WeightPreset::kQ4_0:
      return 2;
    case WeightPreset::kQ8_0:
      return 7;
    case WeightPreset::kQ4_K_M:
      return 15;
    case WeightPreset::kIQ4_NL:
      return 25;
    case WeightPreset::kIQ4_XS:
      return 30;
    case WeightPreset::kMXFP4:
      return 38;
  }
  return 0;
}

ElementType element_type_for(const PlannedTensor& tensor, WeightPreset preset, const Shape& shape) {
  switch (tensor.role) {
    case TensorRole::kNorm:
    case TensorRole::kBias:
    case TensorRole::kConvolution:
    case TensorRole::kDecayRate:
    case TensorRole::kDecayBias:
    case TensorRole::kRouter:
    case TensorRole::kUnquantized:
    case TensorRole::kRopeFactors:
    case TensorRole::kLayerScale:
    case TensorRole::kQueryKeyNorm:
    case TensorRole::kScale:
    case TensorRole::kRouterInputScale:
    case TensorRole::kLongRopeFactors:
    case TensorRole::kAttentionSink:
    case TensorRole::kRouterBias:
    case TensorRole::kClassifier:
      return ElementType::kF32;
    default:
      break;
  }
  ElementType type = ElementType::kF32;
  switch (preset) {
    case WeightPreset::kF32:
      return ElementType::kF32;
    case WeightPreset::kF16:
      return ElementType::kF16;
    case WeightPreset::kQ8_0:
      type = ElementType::kQ8_0;
      break;
    case WeightPreset::kQ4_0:
      // llama.cpp's Q4_0 preset keeps the output projection at Q6_K.
      type = is_output_like(tensor, shape) ? ElementType::kQ6_K : ElementType::kQ4_0;
      break;
    case WeightPreset::kQ4_K_M:
      type = q4_k_m_type(tensor, shape);
      break;
    case WeightPreset::kIQ4_NL:
    case WeightPreset::kIQ4_XS:
      type = is_output_like(tensor, shape)     ? ElementType::kQ6_K
             : preset == WeightPreset::kIQ4_NL ? ElementType::kIQ4_NL
                                               : ElementType::kIQ4_XS;
      break;
    case WeightPreset::kMXFP4:
      // llama.cpp's MXFP4_MOE: a mixture's stacked experts in MXFP4, its
      // other matrices in Q8_0; a dense model all MXFP4 but its output.
      if (is_output_like(tensor, shape) || (shape.moe.experts > 0 && tensor.dims.size() < 3)) {
        type = ElementType::kQ8_0;
      } else {
        type = ElementType::kMXFP4;
      }
      break;
  }
  return fallback_for_row(type, tensor.dims[0]);
}

Status encode_row(ElementType type, const float* row, int64_t n, uint8_t* out) {
  if (!kernels::can_quantize(type)) {
    return unsupported(
        fmt::format("ingot-synth cannot write {} tensors", kernels::element_type_name(type)));
  }
  kernels::quantize_row(type, row, out, n);
  return {};
}

}  // namespace ingot::synth
