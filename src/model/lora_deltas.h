#pragma once
// The LoRA deltas of a step's projections: for each adapter (and scale) a
// row runs with, scale B (A x) added to the base matmul's output (see
// model/lora_adapter.h).
//
// Each adapted projection costs two parallel regions whatever the number
// of adapters in the step: every adapter's A joins the base matmul's
// region as one more product over every row of the packed input (an
// adapter's A is a few rows beside the base's thousands, so computing it
// for rows that do not use it costs little), then every adapter's B adds
// its expansion of the rows that use it straight into the outputs
// (kernels/ops_low_rank.h), in one region split by output features.
// Running each adapter's pair as calls of their own cost a region and a
// packing per call, which with a few adapters outweighed their arithmetic.

#include <cstdint>
#include <span>
#include <vector>

#include "kernels/matmul.h"
#include "kernels/ops_low_rank.h"
#include "model/batch.h"
#include "model/lora_adapter.h"
#include "model/packed_input.h"
#include "util/thread_pool.h"

namespace ingot::model {

// A projection's output the deltas are added to: row r at y + r * y_stride.
struct LoraOutput {
  LoraTarget target;
  float* y;
  int64_t y_stride;
};

class LoraDeltas {
 public:
  // Groups rows by the (adapter, scale) uses of their entries: row r is
  // entry rows[r], or entry r when rows is null.
  void group_rows(const Batch& batch, const int64_t* rows, int64_t n_rows);

  // Appends each group's A for each output's target in `layer` to
  // `products`: the low-rank middles of every row of `input`.
  void add_down_products(int64_t layer, std::span<const LoraOutput> outputs, PackedInput& input,
                         std::vector<kernels::MatmulProduct>& products, ThreadPool& pool);
  // Once those products have run: each group's B times its rows' middles,
  // scaled, added to the same outputs.
  void add_deltas(std::span<const LoraOutput> outputs, ThreadPool& pool);

 private:
  struct Group {
    LoraUse use;
    std::vector<int64_t> rows;
  };
  // One group's pair for one target, and where its middles are.
  struct PendingPair {
    LoraTarget target;
    const Group* group;
    const LoraPair* pair;
    size_t middles;       // offset in middles_: n_rows_ rows of pair->rank
    size_t gathered = 0;  // offset in gathered_: the group's rows of pair->rank
  };
  // Output features [begin, end) of one output, for one thread.
  struct Chunk {
    const LoraOutput* output;
    int64_t begin;
    int64_t end;
  };
  // Small enough for a projection's chunks to spread over the threads,
  // large enough that each is a long run of whole vectors; a multiple of
  // the low-rank kernel's blocks.
  static constexpr int64_t kChunkFeatures = 256;
  static_assert(kChunkFeatures % kernels::kLowRankBlock == 0);

  void gather_middles(const PendingPair& p, float* dst) const;
  int64_t out_features(LoraTarget target) const;
  void add_chunk(const Chunk& chunk) const;

  std::vector<Group> groups_;
  int64_t n_rows_ = 0;
  std::vector<PendingPair> pending_;
  std::vector<float> middles_;   // every row's A x, per pending pair
  std::vector<float> gathered_;  // a group's rows' middles, scaled, per pending pair
  std::vector<Chunk> chunks_;
};

}  // namespace ingot::model
