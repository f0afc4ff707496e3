#pragma once
// A LoRA adapter in llama.cpp's GGUF format (general.type "adapter",
// adapter.type "lora", adapter.lora.alpha): for some of a model's
// projections W, a low-rank pair A (rank x in) and B (out x rank), so that
// the adapted projection is
//   W x + scale B (A x),   scale = s alpha / rank   (s when alpha is 0)
// for a user's scale s, as llama.cpp applies it. ingot adapts the
// attention's q, k, v and output projections and the feed-forward's gate,
// up and down. A stays in the mapped file, in its element type, and runs
// through the matmul kernels; B is copied into a layout of its own (see
// LoraPair). A
// step reads each adapter it uses once, whatever number of its rows use it.

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gguf/reader.h"
#include "kernels/matmul.h"
#include "model/model_config.h"
#include "util/status.h"

namespace ingot::model {

enum class LoraTarget { kQ, kK, kV, kOutput, kGate, kUp, kDown };
inline constexpr size_t kLoraTargets = 7;

struct LoraPair {
  int64_t rank = 0;  // 0: the projection is not adapted
  int64_t in = 0;
  int64_t out = 0;
  kernels::WeightMatrix a{};  // rank rows of `in`, in the file
  // B in F16, laid out for kernels/ops_low_rank.h (blocks of outputs, each
  // holding every rank's values), so that its product sums down whole
  // vectors of outputs. An F32 or BF16 B is rounded to F16 here.
  std::vector<uint16_t> b_blocks;
};

class LoraAdapter {
 public:
  // Reads the adapter at `path` for a model of `config`: its architecture
  // and every pair's shape must match the model's.
  static Result<std::shared_ptr<const LoraAdapter>> load(const std::string& path,
                                                         const ModelConfig& config);

  const std::string& path() const { return path_; }
  const std::string& name() const { return name_; }
  float alpha() const { return alpha_; }
  // The factor a pair's delta takes at the user's scale.
  float scale_for(float user_scale, const LoraPair& pair) const {
    return alpha_ != 0.0f ? user_scale * alpha_ / float(pair.rank) : user_scale;
  }
  const LoraPair& pair(int64_t layer, LoraTarget target) const {
    return layers_[size_t(layer)][size_t(target)];
  }

 private:
  std::optional<gguf::GgufFile> file_;  // the mapping the pairs point into
  std::string path_;
  std::string name_;
  float alpha_ = 0.0f;
  std::vector<std::array<LoraPair, kLoraTargets>> layers_;
};

// An adapter one sequence runs with, at its scale.
struct LoraUse {
  const LoraAdapter* adapter;
  float scale;
};
using LoraSet = std::vector<LoraUse>;

}  // namespace ingot::model
