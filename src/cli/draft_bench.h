#pragma once
// `ingot bench --mtp`: decode speed through the engine with and without
// the prediction block's drafts, on one greedy sequence, and the share of
// drafts accepted (on random weights, few are).

#include <cstdint>

#include "model/model.h"
#include "util/status.h"

namespace ingot::cli {

struct DraftBenchResult {
  double plain_tokens_per_second = 0;    // the engine, no drafts
  double drafted_tokens_per_second = 0;  // the engine with `drafts` per step
  int64_t drafted = 0;
  int64_t accepted = 0;
};

Result<DraftBenchResult> bench_drafts(model::Model& model, int n_gen, int drafts, int threads,
                                      int repetitions);

}  // namespace ingot::cli
