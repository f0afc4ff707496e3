#include "sampling/sampler.h"

#include <algorithm>
#include <cmath>

namespace ingot::sampling {

int32_t argmax(std::span<const float> logits) {
  int32_t best = 0;
  for (size_t i = 1; i < logits.size(); ++i) {
    if (logits[i] > logits[best]) best = static_cast<int32_t>(i);
  }
  return best;
}

Sampler::Sampler(SamplingParams params)
    : params_(std::move(params)), rng_(params_.seed), history_(params_.repetition_window) {}

SampledToken Sampler::sample(std::span<float> logits) {
  apply_bias_and_penalties(logits);
  SampledToken token;
  token.id = params_.temperature <= 0.0f ? argmax(logits) : draw(logits);
  if (params_.logprobs || params_.top_logprobs > 0) fill_logprobs(logits, token);
  return token;
}

void Sampler::apply_bias_and_penalties(std::span<float> logits) const {
  auto vocab = static_cast<int32_t>(logits.size());
  for (const auto& [id, bias] : params_.logit_bias) {
    if (id >= 0 && id < vocab) logits[id] += bias;
  }
  bool repetition = params_.repetition_penalty != 1.0f && params_.repetition_penalty > 0.0f;
  bool additive = params_.frequency_penalty != 0.0f || params_.presence_penalty != 0.0f;
  if (!repetition && !additive) return;
  for (const auto& [id, count] : history_.counts()) {
    if (id < 0 || id >= vocab) continue;
    float& logit = logits[id];
    if (repetition) {
      logit =
          logit > 0.0f ? logit / params_.repetition_penalty : logit * params_.repetition_penalty;
    }
    logit -= static_cast<float>(count) * params_.frequency_penalty + params_.presence_penalty;
  }
}

int32_t Sampler::draw(std::span<const float> logits) {
  candidates_.reset(logits);
  if (params_.top_k > 0) candidates_.keep_top_k(static_cast<size_t>(params_.top_k));

  if (params_.top_p < 1.0f) {
    candidates_.sort_descending();
    candidates_.softmax(1.0f, probs_);
    double cumulative = 0.0;
    size_t keep = candidates_.size();
    for (size_t i = 0; i < probs_.size(); ++i) {
      cumulative += probs_[i];
      if (cumulative >= params_.top_p) {
        keep = i + 1;
        break;
      }
    }
    candidates_.truncate(keep);
  }

  if (params_.min_p > 0.0f && candidates_.size() > 1) {
    candidates_.sort_descending();
    auto items = candidates_.items();
    float threshold = items[0].logit + std::log(params_.min_p);
    size_t keep = 1;
    while (keep < items.size() && items[keep].logit >= threshold) ++keep;
    candidates_.truncate(keep);
  }

  candidates_.softmax(params_.temperature, probs_);
  double r = rng_.next_unit();
  double cumulative = 0.0;
  auto items = candidates_.items();
  for (size_t i = 0; i < items.size(); ++i) {
    cumulative += probs_[i];
    if (r < cumulative) return items[i].id;
  }
  return items.empty() ? argmax(logits) : items.back().id;
}

void Sampler::fill_logprobs(std::span<const float> logits, SampledToken& token) {
  float max_logit = -INFINITY;
  for (float l : logits) max_logit = std::max(max_logit, l);
  double sum = 0.0;
  for (float l : logits) sum += std::exp(static_cast<double>(l - max_logit));
  auto log_z = static_cast<float>(max_logit + std::log(sum));
  token.logprob = logits[token.id] - log_z;
  int32_t n_top = std::clamp(params_.top_logprobs, 0, 20);
  if (n_top == 0) return;
  candidates_.reset(logits);
  candidates_.keep_top_k(static_cast<size_t>(n_top));
  token.top.clear();
  for (const Candidate& c : candidates_.items()) token.top.push_back({c.id, c.logit - log_z});
}

}  // namespace ingot::sampling
