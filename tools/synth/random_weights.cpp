#include "random_weights.h"

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
  bool ones = tensor.role == TensorRole::kNorm;
  uint64_t stream_seed = seed * 0x9e3779b97f4a7c15ull ^ name_hash(tensor.name);
  return [=](std::span<uint8_t> out) {
    std::mt19937_64 rng(stream_seed);
    std::normal_distribution<float> normal(0.0f, kWeightStd);
    std::vector<float> row(static_cast<size_t>(row_length));
    for (size_t offset = 0; offset + row_bytes <= out.size(); offset += row_bytes) {
      for (float& value : row) value = ones ? 1.0f : normal(rng);
      kernels::quantize_row(type, row.data(), out.data() + offset, row_length);
    }
  };
}

}  // namespace ingot::synth
