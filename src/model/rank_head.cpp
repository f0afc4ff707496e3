#include "model/rank_head.h"

#include <algorithm>
#include <cmath>

namespace ingot::model {
namespace {

// y = W x + b for a row-major [rows][cols] W; b may be empty.
std::vector<float> dense(const std::vector<float>& w, const std::vector<float>& b,
                         std::span<const float> x) {
  const size_t cols = x.size(), rows = w.size() / cols;
  std::vector<float> y(rows);
  for (size_t r = 0; r < rows; ++r) {
    double sum = b.empty() ? 0.0 : double(b[r]);
    for (size_t c = 0; c < cols; ++c) sum += double(w[r * cols + c]) * double(x[c]);
    y[r] = float(sum);
  }
  return y;
}

void softmax(std::vector<float>& values) {
  const float top = *std::max_element(values.begin(), values.end());
  double sum = 0.0;
  for (float& v : values) sum += (v = std::exp(v - top));
  for (float& v : values) v = float(v / sum);
}

}  // namespace

RankHead::RankHead(const ModelConfig& config, const ModelWeights& weights)
    : config_(config), weights_(weights) {}

std::vector<float> RankHead::scores(std::span<const float> state) const {
  std::vector<float> hidden(state.begin(), state.end());
  if (!weights_.classifier.empty()) {
    hidden = dense(weights_.classifier, weights_.classifier_bias, hidden);
    for (float& v : hidden) v = std::tanh(v);
  }
  std::vector<float> out =
      dense(weights_.classifier_output, weights_.classifier_output_bias, hidden);
  // A decoder's head gives its label tokens' logits: their softmax, as
  // llama.cpp gives Qwen3's.
  if (!config_.traits.encoder) softmax(out);
  return out;
}

}  // namespace ingot::model
