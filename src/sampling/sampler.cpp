#include "sampling/sampler.h"

#include <algorithm>
#include <cmath>

#include "kernels/ops_exp_sum.h"

namespace ingot::sampling {

int32_t argmax(std::span<const float> logits) {
  float best = max_logit(logits);
  auto found = std::find(logits.begin(), logits.end(), best);
  return found == logits.end() ? 0 : static_cast<int32_t>(found - logits.begin());
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
  if (params_.top_k > 0) {
    candidates_.reset_top_k(logits, static_cast<size_t>(params_.top_k));
    if (params_.top_p < 1.0f && candidates_.size() > 0)
      keep_nucleus(candidate_mass(candidates_.items()[0].logit));
  } else if (params_.top_p < 1.0f) {
    gather_nucleus_of_vocabulary(logits);
  } else if (params_.min_p > 0.0f) {
    // The min-p step below keeps exactly these; gathering only them spares
    // sorting the vocabulary.
    candidates_.reset_at_least(logits, max_logit(logits) + std::log(params_.min_p));
  } else {
    // Nothing truncates: the draw runs over the vocabulary in id order,
    // which samples the same distribution as sorted order would.
    candidates_.reset(logits);
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

double Sampler::candidate_mass(float max) {
  double mass = 0.0;
  for (const Candidate& c : candidates_.items())
    mass += std::exp(static_cast<double>(c.logit - max));
  return mass;
}

void Sampler::keep_nucleus(double total_mass) {
  // Candidates are sorted best first; `total_mass` is the sum of
  // exp(logit - best) over the set top-p is taken from.
  auto items = candidates_.items();
  if (items.empty()) return;
  float best = items[0].logit;
  double cumulative = 0.0;
  for (size_t i = 0; i < items.size(); ++i) {
    cumulative += std::exp(static_cast<double>(items[i].logit - best)) / total_mass;
    if (cumulative >= params_.top_p) {
      candidates_.truncate(i + 1);
      return;
    }
  }
}

void Sampler::gather_nucleus_of_vocabulary(std::span<const float> logits) {
  // The nucleus is a run of the best tokens, so once the tokens within some
  // distance of the best hold top_p of the mass, the nucleus lies among
  // them and only they need sorting. The distance widens until it does.
  float best = max_logit(logits);
  const double total_mass =
      kernels::sum_exp(logits.data(), static_cast<int64_t>(logits.size()), best);
  if (std::isfinite(best)) {
    for (float distance : {8.0f, 16.0f, 32.0f}) {
      candidates_.reset_at_least(logits, best - distance);
      if (candidates_.keep_best_mass(best, distance, params_.top_p * total_mass)) return;
    }
  }
  candidates_.reset(logits);
  candidates_.sort_descending();
  keep_nucleus(total_mass);
}

void Sampler::fill_logprobs(std::span<const float> logits, SampledToken& token) {
  ScoredToken scored = score_token(logits, token.id, params_.top_logprobs, candidates_);
  token.logprob = scored.logprob;
  token.top = std::move(scored.top);
}

}  // namespace ingot::sampling
