// A speculative step runs drafted tokens that may be refused: on a hybrid
// model, going back to the accepted length must leave the recurrent state
// exactly as if only the accepted tokens had run.

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "model/model.h"
#include "support/shared_data.h"
#include "support/synthetic_model.h"

namespace ingot::model {
namespace {

std::vector<float> next_logits(Model& model, KvCache& cache, SequenceId sequence, int32_t token,
                               int64_t position, ThreadPool& pool) {
  Batch batch;
  batch.add(token, position, sequence, true);
  Result<Logits> logits = model.forward(batch, cache, pool);
  EXPECT_TRUE(logits.ok()) << logits.error().describe();
  if (!logits.ok()) return {};
  return std::vector<float>(logits->row(0), logits->row(0) + logits->n_vocab);
}

double largest_difference(const std::vector<float>& a, const std::vector<float>& b) {
  double worst = 0;
  for (size_t i = 0; i < a.size(); ++i) worst = std::max(worst, double(std::fabs(a[i] - b[i])));
  return worst;
}

TEST(SpeculativeRollback, RefusedDraftsLeaveNoTraceInTheRecurrentState) {
  INGOT_REQUIRE_SHARED();
  auto model = Model::load(ingot::testing::synthetic_model("tiny-qwen35", "f16"));
  ASSERT_TRUE(model.ok()) << model.error().describe();
  ThreadPool pool(2);
  const std::vector<int32_t> prompt = {9707, 11, 1879, 0, 576, 3974};
  const std::vector<int32_t> drafts = {13, 4710, 220, 16};
  const int32_t next = 1207;
  const auto n = int64_t(prompt.size());
  for (int64_t accepted = 0; accepted <= int64_t(drafts.size()); ++accepted) {
    // The step: the prompt's last token and every draft, checkpointed;
    // then back to the prompt and `accepted` drafts, then one more token.
    KvCache speculative = (*model)->make_cache(64);
    Batch batch;
    for (int64_t i = 0; i + 1 < n; ++i) batch.add(prompt[size_t(i)], i, 0, false);
    ASSERT_TRUE((*model)->forward(batch, speculative, pool).ok());
    batch.clear();
    batch.add(prompt.back(), n - 1, 0, true, /*checkpoint=*/true);
    for (size_t d = 0; d < drafts.size(); ++d) {
      batch.add(drafts[d], n + int64_t(d), 0, true, /*checkpoint=*/true);
    }
    ASSERT_TRUE((*model)->forward(batch, speculative, pool).ok());
    ASSERT_EQ(speculative.resumable_length(0, n + accepted), n + accepted);
    speculative.truncate(0, n + accepted);
    ASSERT_EQ(speculative.sequence_length(0), n + accepted);
    std::vector<float> after_rollback =
        next_logits(**model, speculative, 0, next, n + accepted, pool);

    // The same tokens, only the accepted ones, no speculation.
    KvCache plain = (*model)->make_cache(64);
    batch.clear();
    for (int64_t i = 0; i < n; ++i) batch.add(prompt[size_t(i)], i, 0, false);
    for (int64_t d = 0; d < accepted; ++d) batch.add(drafts[size_t(d)], n + d, 0, false);
    ASSERT_TRUE((*model)->forward(batch, plain, pool).ok());
    std::vector<float> straight = next_logits(**model, plain, 0, next, n + accepted, pool);

    ASSERT_EQ(after_rollback.size(), straight.size());
    EXPECT_LT(largest_difference(after_rollback, straight), 1e-3) << accepted << " accepted";
  }
}

}  // namespace
}  // namespace ingot::model
