#pragma once
// The forward pass shared by every supported architecture: for each layer,
//   h = x + Wo attention(rope(Wq n(x)), rope(Wk n(x)), Wv n(x))
//   x = h + Wdown (silu(Wgate n(h)) * Wup n(h))
// with n() an RMSNorm, then logits = Wout n(x) for the entries that want
// them. The whole batch goes through each matmul together, so B sequences
// decoding one token each cost one batched matmul per weight, not B.
//
// Buffers grow to the largest batch seen and are reused: no allocation per
// step once the batch sizes settle.

#include <array>
#include <vector>

#include "kernels/matmul.h"
#include "kernels/ops_rope.h"
#include "model/batch.h"
#include "model/kv_cache.h"
#include "model/model_config.h"
#include "model/weights.h"
#include "util/status.h"
#include "util/thread_pool.h"

namespace ingot::model {

class ForwardPass {
 public:
  // Query heads per KV head that one attention task can hold state for.
  static constexpr int64_t kMaxGroupSize = 64;

  ForwardPass(const ModelConfig& config, const ModelWeights& weights);

  // Writes the batch's keys and values into `cache` and returns the logits
  // of the entries that want them. On error the cache is as it was.
  Result<Logits> run(const Batch& batch, KvCache& cache, ThreadPool& pool);

 private:
  // One matmul input packed once for each operand type the weights reading
  // it need (Q8_0, Q8_K, F16, ...): q/k/v share one packing unless a
  // mixed-type file gives them different operand types.
  class PackedInput {
   public:
    void reset(const float* x, int64_t n_tokens, int64_t cols);
    const kernels::PackedActivations& for_weight(const kernels::WeightMatrix& w, ThreadPool& pool);
    // y = this input times w, as one product of a kernels::matmul_all call.
    // The packing it points to stays valid until reset or a fourth
    // operand type.
    kernels::MatmulProduct product(const kernels::WeightMatrix& w, float* y, int64_t y_stride,
                                   ThreadPool& pool) {
      return {&w, &for_weight(w, pool), y, y_stride};
    }

   private:
    static constexpr int kSlots = 3;  // q, k and v need at most three
    const float* x_ = nullptr;
    int64_t n_tokens_ = 0;
    int64_t cols_ = 0;
    int used_ = 0;
    std::array<kernels::PackedActivations, kSlots> packs_;
    std::array<kernels::ElementType, kSlots> operand_types_{};
  };

  // Where each entry's keys and values go, and the blocks its attention reads.
  struct Placement {
    KvCache::Cell cell;
    const std::vector<int32_t>* blocks;
  };

  Status place(const Batch& batch, KvCache& cache);
  void resize_buffers(int64_t n_tokens, int64_t n_logits);
  void embed(const Batch& batch);
  void compute_rope_angles(const Batch& batch);
  void attention_block(int64_t layer, const Batch& batch, KvCache& cache, ThreadPool& pool);
  void project_qkv(const LayerWeights& w, int64_t n_tokens, ThreadPool& pool);
  void store_kv(int64_t layer, int64_t n_tokens, KvCache& cache);
  void attend(int64_t layer, const Batch& batch, const KvCache& cache, ThreadPool& pool);
  void feed_forward_block(const LayerWeights& w, int64_t n_tokens, ThreadPool& pool);
  void gate_and_pack(const kernels::WeightMatrix& down, int64_t n_tokens, ThreadPool& pool);
  void keep_output_rows(const Batch& batch);
  Logits output(ThreadPool& pool);

  const ModelConfig& config_;
  const ModelWeights& weights_;
  kernels::Rope rope_;
  float attention_scale_;

  std::vector<Placement> placements_;
  // The rows of q_, attended_ and x_ still computed: every entry until the
  // last layer, then only those that want logits. rows_[r] is row r's entry.
  std::vector<int64_t> rows_;
  int64_t n_rows_ = 0;
  std::vector<float> x_;         // [T][n_embd] the residual stream
  std::vector<float> normed_;    // [T][n_embd]
  std::vector<float> q_;         // [T][q_dim]
  std::vector<float> k_;         // [T][kv_dim]
  std::vector<float> v_;         // [T][kv_dim]
  std::vector<uint16_t> k_f16_;  // [T][kv_dim] k_ in F16, before it is spread into the cache
  std::vector<float> attended_;  // [T][q_dim]
  std::vector<float> gate_;      // [T][n_ff]
  std::vector<float> up_;        // [T][n_ff]
  std::vector<float> rope_cos_;  // [T][n_rot/2]
  std::vector<float> rope_sin_;
  std::vector<float> final_;                  // [n_logits][n_embd]
  std::vector<float> logits_;                 // [n_logits][n_vocab]
  PackedInput packed_normed_;                 // read by q/k/v, then by gate/up
  PackedInput packed_attended_;               // read by the output projection
  kernels::PackedActivations packed_hidden_;  // read by the down projection
  PackedInput packed_final_;                  // read by the vocabulary projection
};

}  // namespace ingot::model
