#include "random_weights.h"

#include <cmath>
#include <random>
#include <string_view>
#include <vector>

#include "kernels/quantize.h"

namespace ingot::synth {
namespace {

constexpr float kWeightStd = 0.02f;

// FNV-1a: mixes the tensor's name into its stream's seed.
uint64_t name_hash(std::string_view name) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (char c : name) {
    hash ^= static_cast<uint8_t>(c);
    hash *= 0x100000001b3ull;
  }
  return hash;
}

}  // namespace

gguf::GgufWriter::Filler random_filler(const PlannedTensor& tensor, kernels::ElementType type,
                                       uint64_t seed) {
  int64_t row_length = tensor.dims[0];
  size_t row_bytes = *kernels::row_bytes(type, row_length);
  TensorRole role = tensor.role;
  uint64_t stream_seed = seed * 0x9e3779b97f4a7c15ull ^ name_hash(tensor.name);
  return [=](std::span<uint8_t> out) {
    int64_t index = 0;
    std::mt19937_64 rng(stream_seed);
    std::normal_distribution<float> normal(0.0f, kWeightStd);
    std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
    // The values each role takes in a trained model, roughly: norms start
    // at one; decay rates are -exp(A_log) with A_log in [0, log 16], as
    // Qwen3.5 initializes them; convolution taps are larger than weights.
    auto draw = [&]() -> float {
      switch (role) {
        case TensorRole::kNorm:
          return 1.0f;
        case TensorRole::kDecayRate:
          return -std::exp(uniform(rng) * std::log(16.0f));
        case TensorRole::kConvolution:
          return 10.0f * normal(rng);
        case TensorRole::kLayerScale:
        case TensorRole::kScale:
          return 0.5f + uniform(rng);
        case TensorRole::kLongRopeFactors:
          return 1.0f + 2.0f * uniform(rng);
        case TensorRole::kAttentionSink:
          return 3.0f * uniform(rng) - 1.0f;
        case TensorRole::kRouterBias:
          return 75.0f * normal(rng);
        case TensorRole::kClassifier:
          return 5.0f * normal(rng);
        case TensorRole::kLoraA:
        case TensorRole::kLoraB:
          return 2.0f * normal(rng);
        case TensorRole::kRouterInputScale:
          return 8.0f * std::sqrt(float(row_length)) * (0.5f + uniform(rng));
        case TensorRole::kQueryKeyNorm:
          return std::pow(float(row_length), -0.25f);
        case TensorRole::kRopeFactors:
          // A quarter of the pairs turn; the others' frequency is divided
          // to nothing (Gemma 4's proportional RoPE on global layers).
          return index++ < row_length / 4 ? 1.0f : 1e30f;
        default:
          return normal(rng);
      }
    };
    std::vector<float> row(static_cast<size_t>(row_length));
    for (size_t offset = 0; offset + row_bytes <= out.size(); offset += row_bytes) {
      for (float& value : row) value = draw();
      kernels::quantize_row(type, row.data(), out.data() + offset, row_length);
    }
  };
}

gguf::GgufWriter::Filler echo_prediction_filler(const PlannedTensor& tensor,
                                                kernels::ElementType type) {
  const bool combine = tensor.name.ends_with("nextn.eh_proj.weight");
  const bool silent =
      tensor.name.ends_with("attn_output.weight") || tensor.name.ends_with("ffn_down.weight");
  if (!combine && !silent) return nullptr;
  const int64_t row_length = tensor.dims[0];
  const size_t row_bytes = *kernels::row_bytes(type, row_length);
  return [=](std::span<uint8_t> out) {
    std::vector<float> row(static_cast<size_t>(row_length));
    int64_t r = 0;
    for (size_t offset = 0; offset + row_bytes <= out.size(); offset += row_bytes, ++r) {
      std::fill(row.begin(), row.end(), 0.0f);
      if (combine) row[size_t(r)] = 1.0f;  // output r takes embedding element r
      kernels::quantize_row(type, row.data(), out.data() + offset, row_length);
    }
  };
}

}  // namespace ingot::synth
