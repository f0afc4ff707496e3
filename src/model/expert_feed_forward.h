#pragma once
// The routed experts of a mixture-of-experts feed-forward (qwen3moe,
// qwen35moe, Gemma 4's mixture member, gpt-oss):
//   p = softmax(Wrouter r),  E = the `used` experts of highest p (ties to
//   the lower index), w_e = p_e / sum over E of p,
//   out = sum over e in E of w_e s_e Wdown_e (act(Wgate_e x) * Wup_e x)
// with r the router's input, act SiLU (GELU for Gemma) and s_e the
// expert's output scale where the file has one. gpt-oss instead picks E by
// the biased scores z = Wrouter r + b, weights w = softmax over E of z, adds
// each matrix's bias per expert and activates by its clamped SwiGLU (see
// ExpertConfig).
// The tokens of a batch are grouped by expert and each chosen expert runs
// once over all of its tokens, so only the chosen experts' weights are read
// and a prefill chunk or several decoding sequences share them. All the
// chosen experts' gate and up projections run in one parallel region, their
// activations and packing in a second, their down projections in a third:
// a decode step's experts are small matrices, and one region each would
// spend as long starting and joining threads as multiplying.

#include <cstdint>
#include <vector>

#include "kernels/packed_activations.h"
#include "model/model_config.h"
#include "model/packed_input.h"
#include "model/weights.h"
#include "util/thread_pool.h"

namespace ingot::model {

class ExpertFeedForward {
 public:
  explicit ExpertFeedForward(const ModelConfig& config) : config_(config) {}

  // Writes the routed experts' sum for each of the n_rows rows of x
  // ([n_rows][n_embd], packed in `packed_x`) into out ([n_rows][n_embd]).
  void run(const LayerWeights& w, const float* x, int64_t n_rows, PackedInput& packed_x, float* out,
           ThreadPool& pool);

 private:
  void route(const LayerWeights& w, int64_t n_rows, PackedInput& packed_x, ThreadPool& pool);
  void group_by_expert(int64_t n_rows);
  void project_gate_up(const LayerWeights& w, const float* x, int64_t n_rows, ThreadPool& pool);
  void activate_and_pack(const LayerWeights& w, ThreadPool& pool);
  void activate(float* hidden, const float* up, int64_t n) const;
  void project_down(const LayerWeights& w, ThreadPool& pool);
  void add_weighted(const LayerWeights& w, int64_t n_rows, float* out, ThreadPool& pool);

  const ModelConfig& config_;
  std::vector<float> router_;         // [T][count]: logits, then probabilities
  std::vector<int32_t> chosen_;       // [T][used]
  std::vector<float> chosen_weight_;  // [T][used]
  std::vector<int32_t> order_;        // [count]: one row's experts, best first
  std::vector<int64_t> next_;         // [count]: where each expert's next pair goes
  // The (row, expert) pairs grouped by expert, experts one after another.
  std::vector<int64_t> expert_begin_;  // count + 1 offsets into the three below
  std::vector<int32_t> expert_rows_;
  std::vector<int32_t> pair_expert_;
  std::vector<int64_t> pair_of_choice_;             // [T][used]: where each choice's pair went
  std::vector<int32_t> active_;                     // the experts with at least one pair
  std::vector<float> gathered_;                     // [pairs][n_embd]: each expert's rows of x
  std::vector<float> gate_;                         // [pairs][feed_forward], then the hidden
  std::vector<float> up_;                           // [pairs][feed_forward]
  std::vector<float> down_;                         // [pairs][n_embd]
  PackedInput whole_input_;                         // x, for experts every row chose
  std::vector<PackedInput> inputs_;                 // [count]: an expert's gathered rows
  std::vector<kernels::PackedActivations> hidden_;  // [count]
  std::vector<kernels::MatmulProduct> products_;
};

}  // namespace ingot::model
