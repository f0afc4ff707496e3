// The KV cache's bookkeeping: positions append in order, blocks come and go
// with sequences, truncation and dropping give cells back.

#include "model/kv_cache.h"

#include <gtest/gtest.h>

namespace ingot::model {
namespace {

TEST(KvCache, AppendsPositionsInOrderAcrossBlocks) {
  KvCache cache(/*n_layers=*/1, /*n_kv_heads=*/2, /*head_dim=*/4, /*n_cells=*/64, /*block_size=*/4);
  EXPECT_EQ(cache.capacity(), 64);
  for (int64_t p = 0; p < 9; ++p) {
    Result<KvCache::Cell> cell = cache.append(7, p);
    ASSERT_TRUE(cell.ok()) << cell.error().describe();
    EXPECT_EQ(cell->offset, p % 4);
  }
  EXPECT_EQ(cache.sequence_length(7), 9);
  EXPECT_EQ(cache.blocks(7).size(), 3u);
  EXPECT_EQ(cache.free_cells(), 64 - 12);
}

TEST(KvCache, RefusesPositionsThatSkipOrRepeat) {
  KvCache cache(1, 1, 4, 16, 4);
  EXPECT_FALSE(cache.append(1, 1).ok());
  EXPECT_EQ(cache.sequence_length(1), 0);
  ASSERT_TRUE(cache.append(1, 0).ok());
  EXPECT_FALSE(cache.append(1, 0).ok());
  EXPECT_FALSE(cache.append(1, 2).ok());
  EXPECT_EQ(cache.sequence_length(1), 1);
}

TEST(KvCache, TruncateAndDropReturnBlocks) {
  KvCache cache(1, 1, 4, 32, 4);
  for (int64_t p = 0; p < 10; ++p) ASSERT_TRUE(cache.append(3, p).ok());
  cache.truncate(3, 5);
  EXPECT_EQ(cache.sequence_length(3), 5);
  EXPECT_EQ(cache.blocks(3).size(), 2u);
  EXPECT_EQ(cache.free_cells(), 32 - 8);
  ASSERT_TRUE(cache.append(3, 5).ok());  // continues where it was cut
  cache.drop(3);
  EXPECT_EQ(cache.sequence_length(3), 0);
  EXPECT_EQ(cache.free_cells(), 32);
}

TEST(KvCache, SequencesShareThePoolUntilItIsFull) {
  KvCache cache(1, 1, 4, 8, 4);
  ASSERT_TRUE(cache.append(1, 0).ok());
  ASSERT_TRUE(cache.append(2, 0).ok());
  EXPECT_NE(cache.blocks(1)[0], cache.blocks(2)[0]);
  Result<KvCache::Cell> full = cache.append(3, 0);
  ASSERT_FALSE(full.ok());
  EXPECT_EQ(full.error().kind(), ErrorKind::kResourceExhausted);
  cache.drop(1);
  EXPECT_TRUE(cache.append(3, 0).ok());
}

TEST(KvCache, TilesOfDifferentLayersBlocksAndHeadsDoNotOverlap) {
  KvCache cache(2, 2, 4, 8, 4);
  EXPECT_EQ(cache.keys(0, 0, 1) - cache.keys(0, 0, 0), 16);
  EXPECT_EQ(cache.keys(0, 1, 0) - cache.keys(0, 0, 0), 32);
  EXPECT_EQ(cache.keys(1, 0, 0) - cache.keys(0, 0, 0), 64);
}

// A hybrid model's sequence: its recurrent state has taken in `length`
// tokens, as after a forward pass over them.
void fill_hybrid(KvCache& cache, SequenceId sequence, int64_t length) {
  for (int64_t p = 0; p < length; ++p) ASSERT_TRUE(cache.append(sequence, p).ok());
  cache.recurrent().conv(sequence, 0)[0] = 1.0f;
  cache.recurrent().set_length(sequence, length);
}

TEST(KvCache, RecurrentStateResumesOnlyFromItsEnd) {
  KvCache cache(1, 1, 4, 64, 4);
  cache.add_recurrent_state({/*n_layers=*/2, /*conv_floats=*/3, /*delta_floats=*/4});
  fill_hybrid(cache, 5, 10);
  EXPECT_EQ(cache.resumable_length(5, 10), 10);
  EXPECT_EQ(cache.resumable_length(5, 25), 10);  // no further than what is cached
  EXPECT_EQ(cache.resumable_length(5, 9), 0);    // the state cannot go back
  EXPECT_EQ(cache.resumable_length(6, 4), 0);    // a sequence never seen
  cache.truncate(5, 10);
  EXPECT_EQ(cache.sequence_length(5), 10);
  EXPECT_EQ(cache.recurrent().conv(5, 0)[0], 1.0f);
  // Going back forgets the whole sequence, state and keys alike.
  cache.truncate(5, 9);
  EXPECT_EQ(cache.sequence_length(5), 0);
  EXPECT_EQ(cache.recurrent().length(5), 0);
  EXPECT_EQ(cache.recurrent().conv(5, 0)[0], 0.0f);
  EXPECT_EQ(cache.free_cells(), 64);
}

TEST(KvCache, WithoutRecurrentStateAnyPrefixResumes) {
  KvCache cache(1, 1, 4, 64, 4);
  for (int64_t p = 0; p < 10; ++p) ASSERT_TRUE(cache.append(5, p).ok());
  EXPECT_EQ(cache.resumable_length(5, 9), 9);
  EXPECT_EQ(cache.resumable_length(5, 3), 3);
}

TEST(KvCache, DroppingASequenceFreesItsRecurrentState) {
  KvCache cache(1, 1, 4, 64, 4);
  cache.add_recurrent_state({1, 2, 2});
  fill_hybrid(cache, 1, 3);
  cache.drop(1);
  EXPECT_EQ(cache.recurrent().length(1), 0);
  EXPECT_EQ(cache.recurrent().conv(1, 0)[0], 0.0f);  // zeroed afresh
}

TEST(KvCache, RecurrentStateGoesBackToASnapshot) {
  KvCache cache(1, 1, 4, 64, 4);
  cache.add_recurrent_state({1, 2, 2});
  fill_hybrid(cache, 2, 6);
  cache.recurrent().save_snapshot(2, 6);
  for (int64_t p = 6; p < 11; ++p) ASSERT_TRUE(cache.append(2, p).ok());
  cache.recurrent().conv(2, 0)[0] = 7.0f;  // the state moves on
  cache.recurrent().set_length(2, 11);
  EXPECT_EQ(cache.resumable_length(2, 9), 6);
  EXPECT_EQ(cache.resumable_length(2, 5), 0);
  cache.truncate(2, 6);
  EXPECT_EQ(cache.sequence_length(2), 6);
  EXPECT_EQ(cache.recurrent().length(2), 6);
  EXPECT_EQ(cache.recurrent().conv(2, 0)[0], 1.0f);  // as it was at 6
}

TEST(KvCache, ASequenceKeepsItsLatestSnapshotsAndForgetsThosePastWhereItGoesBack) {
  KvCache cache(1, 1, 4, 64, 4);
  cache.add_recurrent_state({1, 2, 2});
  RecurrentStates& states = cache.recurrent();
  for (int64_t p = 0; p < 12; ++p) {
    ASSERT_TRUE(cache.append(4, p).ok());
    states.conv(4, 0)[0] = float(p + 1);
    states.set_length(4, p + 1);
    if ((p + 1) % 2 == 0) states.save_snapshot(4, p + 1);
  }
  EXPECT_EQ(states.snapshot_count(4), RecurrentStates::kMaxSnapshots);
  EXPECT_EQ(cache.resumable_length(4, 5), 0);  // 2 and 4 were let go
  EXPECT_EQ(cache.resumable_length(4, 7), 6);
  cache.truncate(4, 8);
  EXPECT_EQ(states.conv(4, 0)[0], 8.0f);
  EXPECT_EQ(states.snapshot_count(4), 2u);  // 6 and 8; 10 and 12 are gone
  EXPECT_EQ(cache.resumable_length(4, 11), 8);
}

TEST(KvCache, ASpeculativeStepGoesBackToAnyOfItsCheckpoints) {
  KvCache cache(1, 1, 4, 64, 4);
  cache.add_recurrent_state({1, 2, 2});
  RecurrentStates& states = cache.recurrent();
  fill_hybrid(cache, 3, 4);
  // A step of four drafted tokens, each leaving its checkpoint.
  for (int64_t p = 4; p < 8; ++p) {
    ASSERT_TRUE(cache.append(3, p).ok());
    if (p == 4) states.clear_checkpoints(3);
    states.conv(3, 0)[0] = float(p + 1);
    std::copy_n(states.conv(3, 0), 4, states.add_checkpoint(3, p + 1));
    states.set_length(3, p + 1);
  }
  EXPECT_EQ(cache.resumable_length(3, 6), 6);
  EXPECT_EQ(cache.resumable_length(3, 3), 0);  // before the step: nothing kept
  cache.truncate(3, 6);
  EXPECT_EQ(states.length(3), 6);
  EXPECT_EQ(states.conv(3, 0)[0], 6.0f);
  // Going back spends the checkpoints; the next step's replace them.
  EXPECT_EQ(cache.resumable_length(3, 5), 0);
  ASSERT_TRUE(cache.append(3, 6).ok());
  states.clear_checkpoints(3);
  states.add_checkpoint(3, 7)[0] = 42.0f;
  states.set_length(3, 7);
  EXPECT_EQ(cache.resumable_length(3, 6), 0);
}

}  // namespace
}  // namespace ingot::model
