// Sliding-window layers that keep only their windows (KvCache::WindowPlan):
// the slots go round as sequences move on, a sequence cut back or a prefix
// attached resumes only where its window's blocks kept theirs, and a model
// run on a trimmed cache gives the very logits of an untrimmed one.

#include <gtest/gtest.h>

#include <cstring>
#include <numeric>
#include <vector>

#include "model/kv_cache.h"
#include "model/model.h"
#include "support/shared_data.h"
#include "support/synthetic_model.h"
#include "util/thread_pool.h"

namespace ingot::model {
namespace {

constexpr int64_t kWindowBlock = 32;
constexpr int64_t kWindow = 8;

// A full layer and a windowed one; the windowed pool holds `slots` blocks.
KvCache windowed_cache(int64_t slots, int64_t n_cells = 1024) {
  std::vector<KvCache::LayerShape> layers = {{1, 32, false}, {1, 32, true}};
  return KvCache(layers, n_cells, kWindowBlock, 0, {}, {kWindow, slots * kWindowBlock});
}

void append(KvCache& cache, SequenceId sequence, int64_t from, int64_t to) {
  for (int64_t p = from; p < to; ++p) {
    ASSERT_TRUE(cache.append(sequence, p).ok()) << p;
    cache.slide_window(sequence);
  }
}

TEST(KvWindow, SlotsGoRoundAsASequenceMovesOn) {
  KvCache cache = windowed_cache(4);
  ASSERT_TRUE(cache.trims_windows());
  append(cache, 1, 0, 600);  // 19 blocks on 4 slots
  EXPECT_EQ(cache.sequence_length(1), 600);
  // The window's blocks have tiles of their own.
  const std::vector<int32_t>& blocks = cache.blocks(1);
  const std::byte* last = cache.key_tile(1, blocks[18], 0);
  const std::byte* before = cache.key_tile(1, blocks[17], 0);
  EXPECT_NE(last, before);
  // A second sequence takes the first one's spares.
  append(cache, 2, 0, 64);
  EXPECT_EQ(cache.sequence_length(2), 64);
}

TEST(KvWindow, ASequenceCutBackResumesOnlyWhereItsWindowKeptItsSlots) {
  KvCache cache = windowed_cache(4);
  append(cache, 1, 0, 300);
  // A rollback of a few positions finds its window.
  EXPECT_EQ(cache.resumable_length(1, 295), 295);
  // Far back, the window's blocks lost their slots: nothing can be kept.
  EXPECT_EQ(cache.resumable_length(1, 100), 0);
  cache.truncate(1, 295);
  EXPECT_EQ(cache.sequence_length(1), 295);
  append(cache, 1, 295, 320);
  cache.truncate(1, 100);
  EXPECT_EQ(cache.sequence_length(1), 0);
  append(cache, 1, 0, 40);  // and it starts over
}

TEST(KvWindow, APrefixAttachesUpToWhereItsWindowHasSlots) {
  KvCache cache = windowed_cache(6);
  cache.share_prefixes();
  std::vector<int32_t> tokens(300);
  std::iota(tokens.begin(), tokens.end(), 1);
  append(cache, 1, 0, 300);
  cache.publish(1, tokens);
  // Nine full blocks published; the last ones' windows still have slots.
  const int64_t cached = cache.cached_prefix_length(tokens, 300);
  EXPECT_EQ(cached, 9 * kWindowBlock);
  EXPECT_EQ(cache.attach_cached_prefix(2, tokens, 300), cached);
  cache.drop(1);
  append(cache, 2, cached, cached + 40);
  // A prefix whose end sits where the slots are gone is not attached.
  EXPECT_EQ(cache.cached_prefix_length(tokens, 4 * kWindowBlock), 0);
}

TEST(KvWindow, WithoutAPlanOrWithRoomForEverythingNothingIsTrimmed) {
  std::vector<KvCache::LayerShape> layers = {{1, 32, false}, {1, 32, true}};
  EXPECT_FALSE(KvCache(layers, 1024, kWindowBlock).trims_windows());
  EXPECT_FALSE(KvCache(layers, 1024, kWindowBlock, 0, {}, {kWindow, 1024}).trims_windows());
  // The bytes the windowed layer takes are its pool's.
  EXPECT_EQ(KvCache::bytes_for(layers, 1024, {}, {kWindow, 128}),
            KvCache::bytes_per_position({layers[0]}, {}) * 1024 +
                KvCache::bytes_per_position({layers[1]}, {}) * 128);
}

// Greedy decoding on a trimmed cache whose slots go round several times,
// with a rollback on the way, against the same on an untrimmed one: the
// same logits, bit for bit (attention reads only the window either way).
// Under the sanitizers the pool is smaller and the run shorter: the run
// still wraps round the pool and rolls back after the wrap.
#if defined(INGOT_UNDER_SANITIZERS)
constexpr int64_t kPoolBlocks = 3;
constexpr int kSteps = 120;
constexpr int kRollbackStep = 100;
#else
constexpr int64_t kPoolBlocks = 5;
constexpr int kSteps = 300;
constexpr int kRollbackStep = 200;
#endif

void expect_trimmed_run_matches(const std::string& shape) {
  auto model = Model::load(ingot::testing::synthetic_model(shape, "f16"));
  ASSERT_TRUE(model.ok()) << model.error().describe();
  (*model)->prepare_for_context(512);
  const int64_t window = (*model)->config().swa.window;
  ASSERT_EQ(window, kWindow);
  ThreadPool pool(2);
  KvCache full = (*model)->make_cache(512);
  KvCache trimmed = (*model)->make_cache(512, 0, {}, {window, kPoolBlocks * kWindowBlock});
  ASSERT_TRUE(trimmed.trims_windows());
  int32_t token = 1000;
  int64_t position = 0;
  std::vector<float> expected;
  for (int step = 0; step < kSteps; ++step) {
    if (step == kRollbackStep) {  // a rollback of three positions
      position -= 3;
      full.truncate(0, position);
      trimmed.truncate(0, position);
      ASSERT_EQ(trimmed.sequence_length(0), position);
    }
    Batch batch;
    batch.add(token, position, 0, true);
    Result<Logits> a = (*model)->forward(batch, full, pool);
    ASSERT_TRUE(a.ok()) << a.error().describe();
    expected.assign(a->row(0), a->row(0) + a->n_vocab);
    Result<Logits> b = (*model)->forward(batch, trimmed, pool);
    ASSERT_TRUE(b.ok()) << b.error().describe();
    ASSERT_EQ(std::memcmp(expected.data(), b->row(0), expected.size() * sizeof(float)), 0)
        << shape << " step " << step;
    token = int32_t(std::max_element(expected.begin(), expected.end()) - expected.begin());
    ++position;
  }
}

TEST(KvWindow, GptOssOnATrimmedCacheGivesTheUntrimmedLogits) {
  INGOT_REQUIRE_SHARED();
  expect_trimmed_run_matches("tiny-gpt-oss");
}

TEST(KvWindow, Gemma3OnATrimmedCacheGivesTheUntrimmedLogits) {
  INGOT_REQUIRE_SHARED();
  expect_trimmed_run_matches("tiny-gemma3");
}

}  // namespace
}  // namespace ingot::model
