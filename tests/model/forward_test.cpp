// Forward-pass behaviour beyond parity: a prompt fed in chunks (the first
// wanting no logits) gives the logits it gives in one batch.

#include <gtest/gtest.h>

#include <vector>

#include "model/model.h"
#include "support/shared_data.h"

namespace ingot::model {
namespace {

TEST(Forward, ChunkedPromptGivesTheLogitsOfAWholeOne) {
  INGOT_REQUIRE_SHARED();
  auto model = Model::load(ingot::testing::shared_path("models/stories260K.gguf").string());
  ASSERT_TRUE(model.ok()) << model.error().describe();
  ThreadPool pool(2);
  const std::vector<int32_t> prompt = {1, 403, 407, 261, 378, 429, 302, 263};
  KvCache cache = (*model)->make_cache(64);

  Batch whole;
  for (size_t i = 0; i < prompt.size(); ++i)
    whole.add(prompt[i], int64_t(i), 0, i + 1 == prompt.size());
  Result<Logits> expected = (*model)->forward(whole, cache, pool);
  ASSERT_TRUE(expected.ok());
  const std::vector<float> reference(expected->row(0), expected->row(0) + expected->n_vocab);

  Batch first, second;
  for (size_t i = 0; i < 5; ++i) first.add(prompt[i], int64_t(i), 1, false);
  for (size_t i = 5; i < prompt.size(); ++i)
    second.add(prompt[i], int64_t(i), 1, i + 1 == prompt.size());
  Result<Logits> none = (*model)->forward(first, cache, pool);
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(none->n_rows, 0);
  Result<Logits> chunked = (*model)->forward(second, cache, pool);
  ASSERT_TRUE(chunked.ok());
  ASSERT_EQ(chunked->n_rows, 1);
  for (int64_t i = 0; i < chunked->n_vocab; ++i) {
    EXPECT_NEAR(chunked->row(0)[i], reference[i], 1e-4f) << "token " << i;
  }
}

}  // namespace
}  // namespace ingot::model
