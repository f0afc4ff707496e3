#include "model/forward/canvas_input.h"

#include <algorithm>
#include <cmath>

#include "kernels/ops_norm.h"
#include "model/row_math.h"

namespace ingot::model {

CanvasInput::CanvasInput(const ModelConfig& config, const ModelWeights& weights)
    : config_(config),
      weights_(weights),
      feed_forward_(config, /*adapted=*/nullptr),
      ones_(size_t(config.n_embd), 1.0f) {
  if (weights.self_conditioning) {
    block_.gate = weights.self_conditioning->gate;
    block_.up = weights.self_conditioning->up;
    block_.down = weights.self_conditioning->down;
  }
}

void CanvasInput::run(std::span<const float* const> previous, Step& step) {
  const bool any_previous =
      std::any_of(previous.begin(), previous.end(), [](const float* p) { return p != nullptr; });
  if (any_previous && weights_.self_conditioning) add_self_conditioning(previous, step);
  float* x = step.residual.x.data();
  kernels::rms_norm(x, ones_.data(), x, step.batch.size(), config_.n_embd, config_.rms_eps);
}

// Every row runs the block (a first step's on zeros); only the rows with a
// previous step take its output.
void CanvasInput::add_self_conditioning(std::span<const float* const> previous, Step& step) {
  const int64_t n_tokens = step.batch.size(), n_embd = config_.n_embd;
  grow(soft_, n_tokens * n_embd);
  grow(signal_, n_tokens * n_embd);
  soft_embedding_.run(previous, weights_.token_embedding, config_.n_vocab, n_embd, soft_.data(),
                      step.pool);
  const float scale = std::sqrt(float(n_embd));
  for (int64_t i = 0; i < n_tokens * n_embd; ++i) soft_[size_t(i)] *= scale;
  kernels::rms_norm(soft_.data(), weights_.self_conditioning->pre_norm.data(), soft_.data(),
                    n_tokens, n_embd, config_.rms_eps);
  packed_soft_.reset(soft_.data(), n_tokens, n_embd);
  feed_forward_.run(block_, /*layer=*/0, packed_soft_, signal_.data(), step);
  float* x = step.residual.x.data();
  for (int64_t t = 0; t < n_tokens; ++t) {
    if (previous[size_t(t)] != nullptr) {
      add_in_place(x + t * n_embd, signal_.data() + t * n_embd, n_embd);
    }
  }
}

}  // namespace ingot::model
