#include "sampling/canvas_denoiser.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <utility>

namespace ingot::sampling {

CanvasDenoiser::CanvasDenoiser(const DenoiserParams& params, int64_t canvas_length, int64_t n_vocab)
    : params_(params),
      canvas_length_(canvas_length),
      n_vocab_(n_vocab),
      rng_(params.seed),
      token_(0, int32_t(n_vocab - 1)),
      canvas_(size_t(canvas_length)),
      argmax_(size_t(canvas_length), 0),
      previous_argmax_(size_t(canvas_length), -1),
      positions_(size_t(canvas_length)) {
  for (int32_t& t : canvas_) t = token_(rng_);
}

// The reference's schedule: step k of S (from 0) runs at
// t_min + (t_max - t_min) (S - k) / S, in floats as it computes it.
float CanvasDenoiser::temperature() const {
  const auto remaining = float(params_.max_steps - steps_taken_);
  return params_.t_min + (params_.t_max - params_.t_min) * (remaining / float(params_.max_steps));
}

const float* CanvasDenoiser::previous_probabilities(int64_t position) const {
  if (steps_taken_ == 0) return nullptr;
  return probabilities_.data() + position * n_vocab_;
}

// The step's draws come first, in the reference's order (one uniform and
// one token per position), so that threads do not change them.
void CanvasDenoiser::take_step(float* logits, ThreadPool& pool) {
  const float temperature_inverse = 1.0f / temperature();
  std::vector<float> u(static_cast<size_t>(canvas_length_));
  std::vector<int32_t> renoise(static_cast<size_t>(canvas_length_));
  for (int64_t p = 0; p < canvas_length_; ++p) {
    u[size_t(p)] = unit_(rng_);
    renoise[size_t(p)] = token_(rng_);
  }
  probabilities_.resize(size_t(canvas_length_ * n_vocab_));
  const float temperature = this->temperature();
  pool.parallel_for(canvas_length_, 1, [&](int64_t begin, int64_t end) {
    for (int64_t p = begin; p < end; ++p) {
      float* row = logits + p * n_vocab_;
      float* probabilities = probabilities_.data() + p * n_vocab_;
      if (params_.bounds_samples()) std::copy_n(row, n_vocab_, probabilities);
      positions_[size_t(p)] = read_row(row, temperature_inverse, u[size_t(p)]);
      if (params_.bounds_samples()) {
        Position& position = positions_[size_t(p)];
        position.sample = bounded_sample(probabilities, temperature, position.argmax, u[size_t(p)]);
      }
      std::copy_n(row, n_vocab_, probabilities);
    }
  });
  accept_and_renoise(renoise);
  ++steps_taken_;
  if (steps_taken_ >= params_.max_steps) done_ = true;
}

// A position's argmax, its sample at u and the entropy of softmax(row t^-1),
// summed in the reference's order; the row becomes those probabilities.
CanvasDenoiser::Position CanvasDenoiser::read_row(float* row, float temperature_inverse,
                                                  float u) const {
  Position position;
  float most = -INFINITY;
  for (int64_t v = 0; v < n_vocab_; ++v) {
    const float z = row[v] * temperature_inverse;
    if (z > most) {
      most = z;
      position.argmax = int32_t(v);
    }
  }
  float total = 0.0f;
  for (int64_t v = 0; v < n_vocab_; ++v) {
    row[v] = std::exp(row[v] * temperature_inverse - most);
    total += row[v];
  }
  const float target = u * total;
  float cumulative = 0.0f, entropy = 0.0f;
  bool picked = false;
  position.sample = int32_t(n_vocab_ - 1);
  for (int64_t v = 0; v < n_vocab_; ++v) {
    const float e = row[v];
    const float p = e / total;
    if (p > 0.0f) entropy -= p * std::log(p);
    cumulative += e;
    if (!picked && cumulative >= target) {
      position.sample = int32_t(v);
      picked = true;
    }
    row[v] = p;
  }
  position.entropy = entropy;
  return position;
}

// The request's exploration sample from a row's logits: at the lower
// temperature, among the top_k and then the top_p most likely tokens,
// drawn at the step's uniform u.
int32_t CanvasDenoiser::bounded_sample(const float* logits, float temperature, int32_t argmax,
                                       float u) const {
  if (params_.temperature == 0.0f) return argmax;
  const float t =
      params_.temperature > 0.0f ? std::min(temperature, params_.temperature) : temperature;
  // Tokens under e^-30 of the best cannot reach any top_p below one.
  const float floor = logits[argmax] - 30.0f * t;
  std::vector<std::pair<float, int32_t>> candidates;
  for (int64_t v = 0; v < n_vocab_; ++v) {
    if (logits[v] >= floor) candidates.emplace_back(logits[v], int32_t(v));
  }
  std::sort(candidates.begin(), candidates.end(), std::greater<>());
  if (params_.top_k > 0 && candidates.size() > size_t(params_.top_k)) {
    candidates.resize(size_t(params_.top_k));
  }
  std::vector<double> weights;
  double total = 0;
  for (const auto& [logit, token] : candidates) {
    weights.push_back(std::exp(double(logit - candidates[0].first) / t));
    total += weights.back();
  }
  size_t kept = candidates.size();
  if (params_.top_p < 1.0f) {
    double held = 0;
    for (size_t i = 0; i < candidates.size(); ++i) {
      held += weights[i];
      if (held >= params_.top_p * total) {
        kept = i + 1;
        break;
      }
    }
    total = held;
  }
  double target = double(u) * total, cumulative = 0;
  for (size_t i = 0; i < kept; ++i) {
    cumulative += weights[i];
    if (cumulative >= target) return candidates[i].second;
  }
  return candidates[kept - 1].second;
}

// The lowest entropies first (std::sort's order among equals, as the
// reference's); a position is kept while the entropies before it sum
// within the bound, so the first always is.
void CanvasDenoiser::accept_and_renoise(std::span<const int32_t> renoise) {
  std::vector<int32_t> order(static_cast<size_t>(canvas_length_));
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
    return positions_[size_t(a)].entropy < positions_[size_t(b)].entropy;
  });
  std::vector<char> accepted(size_t(canvas_length_), 0);
  double cumulative = 0.0;
  for (int32_t p : order) {
    cumulative += positions_[size_t(p)].entropy;
    if (cumulative - positions_[size_t(p)].entropy <= params_.entropy_bound) {
      accepted[size_t(p)] = 1;
    }
  }
  float entropy_sum = 0.0f;
  for (int64_t p = 0; p < canvas_length_; ++p) {
    const Position& position = positions_[size_t(p)];
    canvas_[size_t(p)] = accepted[size_t(p)] ? position.sample : renoise[size_t(p)];
    argmax_[size_t(p)] = position.argmax;
    entropy_sum += position.entropy;
  }
  held_ = argmax_ == previous_argmax_ ? held_ + 1 : 0;
  const bool confident = entropy_sum / float(canvas_length_) < params_.confidence;
  if (held_ >= params_.stability_steps && confident) done_ = true;
  previous_argmax_ = argmax_;
}

}  // namespace ingot::sampling
