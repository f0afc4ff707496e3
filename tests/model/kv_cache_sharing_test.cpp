// Prefix sharing in the KV cache: full blocks indexed by their prefix,
// held by every sequence that starts with it, read-only while shared,
// cached after their last holder lets go, and taken back least recently
// released first.

#include <gtest/gtest.h>

#include <cstddef>
#include <numeric>
#include <span>
#include <vector>

#include "model/kv_cache.h"

namespace ingot::model {
namespace {

constexpr int64_t kBlock = 4;

std::vector<int32_t> tokens_from(int32_t first, size_t count) {
  std::vector<int32_t> tokens(count);
  std::iota(tokens.begin(), tokens.end(), first);
  return tokens;
}

// Appends `tokens` past the sequence's end, as a forward pass would, and
// indexes what filled up.
void compute(KvCache& cache, SequenceId sequence, const std::vector<int32_t>& tokens,
             size_t count) {
  for (size_t i = size_t(cache.sequence_length(sequence)); i < count; ++i) {
    Result<KvCache::Cell> cell = cache.append(sequence, int64_t(i));
    ASSERT_TRUE(cell.ok()) << cell.error().describe();
    cache.keys(0, cell->block, 0)[size_t(cell->offset)] = uint16_t(tokens[i]);
  }
  cache.publish(sequence, tokens);
}

KvCache sharing_cache(int64_t cells) {
  KvCache cache(/*n_layers=*/1, /*n_kv_heads=*/1, /*head_dim=*/kBlock, cells, kBlock);
  cache.share_prefixes();
  return cache;
}

TEST(KvCacheSharing, ASecondSequenceStartsFromTheFirstsFullBlocks) {
  KvCache cache = sharing_cache(64);
  const std::vector<int32_t> prompt = tokens_from(100, 10);
  compute(cache, 1, prompt, 10);
  EXPECT_EQ(cache.cached_prefix_length(prompt, 10), 8);
  EXPECT_EQ(cache.attach_cached_prefix(2, prompt, 9), 8);
  EXPECT_EQ(cache.blocks(2),
            std::vector<int32_t>(cache.blocks(1).begin(), cache.blocks(1).begin() + 2));
  // The rest is the second sequence's own.
  compute(cache, 2, prompt, 10);
  EXPECT_NE(cache.blocks(2)[2], cache.blocks(1)[2]);
  EXPECT_EQ(cache.sharing_stats().indexed_blocks, 2);
}

TEST(KvCacheSharing, ALimitOrADifferentTokenStopsTheMatchAtABlock) {
  KvCache cache = sharing_cache(64);
  const std::vector<int32_t> prompt = tokens_from(0, 12);
  compute(cache, 1, prompt, 12);
  EXPECT_EQ(cache.cached_prefix_length(prompt, 11), 8);
  std::vector<int32_t> other = prompt;
  other[5] = 999;
  EXPECT_EQ(cache.cached_prefix_length(other, 12), 4);
  EXPECT_EQ(cache.attach_cached_prefix(2, other, 12), 4);
  EXPECT_EQ(cache.cached_prefix_length(tokens_from(1, 12), 12), 0);
}

TEST(KvCacheSharing, CuttingInsideASharedBlockCopiesItAndLeavesTheOtherAlone) {
  KvCache cache = sharing_cache(64);
  const std::vector<int32_t> prompt = tokens_from(50, 8);
  compute(cache, 1, prompt, 8);
  ASSERT_EQ(cache.attach_cached_prefix(2, prompt, 8), 8);
  const int32_t shared = cache.blocks(1)[1];
  cache.truncate(2, 6);
  EXPECT_EQ(cache.sequence_length(2), 6);
  const int32_t own = cache.blocks(2)[1];
  EXPECT_NE(own, shared);
  EXPECT_EQ(cache.keys(0, own, 0)[1], uint16_t(prompt[5]));  // the copy holds what was there
  Result<KvCache::Cell> cell = cache.append(2, 6);
  ASSERT_TRUE(cell.ok());
  EXPECT_EQ(cell->block, own);
  cache.keys(0, own, 0)[2] = 7777;
  EXPECT_EQ(cache.keys(0, shared, 0)[2], uint16_t(prompt[6]));
  // The first sequence's block is still what the index finds.
  EXPECT_EQ(cache.cached_prefix_length(prompt, 8), 8);
}

TEST(KvCacheSharing, CuttingInsideAnIndexedBlockHeldAloneKeepsItCached) {
  KvCache cache = sharing_cache(64);
  const std::vector<int32_t> prompt = tokens_from(50, 8);
  compute(cache, 1, prompt, 8);
  const int32_t block = cache.blocks(1)[1];
  cache.truncate(1, 6);
  EXPECT_NE(cache.blocks(1)[1], block);
  EXPECT_EQ(cache.cached_prefix_length(prompt, 8), 8);
  EXPECT_EQ(cache.sharing_stats().unheld_blocks, 1);
}

TEST(KvCacheSharing, WithNoBlockToCopyIntoACutUnindexesTheBlockHeldAlone) {
  KvCache cache = sharing_cache(8);  // two blocks, both held
  const std::vector<int32_t> prompt = tokens_from(50, 8);
  compute(cache, 1, prompt, 8);
  const int32_t block = cache.blocks(1)[1];
  cache.truncate(1, 6);
  EXPECT_EQ(cache.blocks(1)[1], block);
  EXPECT_EQ(cache.cached_prefix_length(prompt, 8), 4);
}

TEST(KvCacheSharing, ADroppedSequencesBlocksStayCachedUntilNeeded) {
  KvCache cache = sharing_cache(16);  // four blocks
  const std::vector<int32_t> first = tokens_from(0, 8);
  compute(cache, 1, first, 8);
  cache.drop(1);
  EXPECT_EQ(cache.free_cells(), 16);
  EXPECT_EQ(cache.sharing_stats().unheld_blocks, 2);
  EXPECT_EQ(cache.attach_cached_prefix(2, first, 8), 8);
  EXPECT_EQ(cache.sharing_stats().unheld_blocks, 0);
  cache.drop(2);
  // Eight new positions take the two free blocks; more evict the cached
  // ones, the least recently released first: a prefix's tail before its
  // head, which a dropped sequence releases last.
  const std::vector<int32_t> second = tokens_from(500, 16);
  compute(cache, 3, second, 12);
  EXPECT_EQ(cache.sharing_stats().evictions, 1);
  EXPECT_EQ(cache.cached_prefix_length(first, 8), 4);
  compute(cache, 3, second, 16);
  EXPECT_EQ(cache.sharing_stats().evictions, 2);
  EXPECT_EQ(cache.cached_prefix_length(first, 8), 0);
}

TEST(KvCacheSharing, ABlockInUseIsNeverEvicted) {
  KvCache cache = sharing_cache(8);  // two blocks
  const std::vector<int32_t> prompt = tokens_from(0, 8);
  compute(cache, 1, prompt, 8);
  Result<KvCache::Cell> full = cache.append(2, 0);
  ASSERT_FALSE(full.ok());
  EXPECT_EQ(full.error().kind(), ErrorKind::kResourceExhausted);
  EXPECT_EQ(cache.cached_prefix_length(prompt, 8), 8);
  EXPECT_EQ(cache.sharing_stats().evictions, 0);
}

// The prompt cache's room: blocks beyond the slots' cells, made when every
// other block is held or cached, keep a dropped sequence's prefix while
// another fills the slots' cells; full, it evicts as before.
TEST(KvCacheSharing, ThePromptCachesRoomKeepsADroppedPrefixWhileOthersRun) {
  KvCache cache({{1, kBlock}}, /*n_cells=*/8, kBlock, /*cache_cells=*/8);  // 2 + 2 blocks
  cache.share_prefixes();
  EXPECT_EQ(cache.capacity(), 16);
  EXPECT_EQ(cache.free_cells(), 16);
  const std::vector<int32_t> first = tokens_from(0, 8);
  compute(cache, 1, first, 8);
  cache.drop(1);
  const std::vector<int32_t> second = tokens_from(500, 16);
  compute(cache, 2, second, 8);  // the two free blocks of the prompt cache's room
  EXPECT_EQ(cache.sharing_stats().evictions, 0);
  EXPECT_EQ(cache.cached_prefix_length(first, 8), 8);
  // The keys came through untouched.
  EXPECT_EQ(cache.keys(0, cache.blocks(2)[0], 0)[0], uint16_t(500));
  compute(cache, 2, second, 12);  // nothing free: the cached tail goes
  EXPECT_EQ(cache.sharing_stats().evictions, 1);
  EXPECT_EQ(cache.cached_prefix_length(first, 8), 4);
  // Clearing forgets the room's blocks; they are made again when wanted.
  cache.clear();
  EXPECT_EQ(cache.free_cells(), 16);
  compute(cache, 3, second, 16);
  EXPECT_EQ(cache.sequence_length(3), 16);
}

// The prompt cache on disk: a block saved from one cache and restored into
// another under its prefix hash attaches there as a computed one does,
// with the same keys and values.
TEST(KvCacheSharing, ASavedBlockRestoredElsewhereAttachesWithItsKeysAndValues) {
  KvCache source = sharing_cache(16);
  const std::vector<int32_t> prompt = tokens_from(100, 8);
  compute(source, 1, prompt, 8);
  source.values(0, source.blocks(1)[1], 0)[3] = uint16_t(4242);
  const std::span<const uint64_t> hashes = source.prefix_hashes(1);
  ASSERT_EQ(hashes.size(), 2u);
  EXPECT_EQ(hashes[1],
            KvCache::next_prefix_hash(KvCache::next_prefix_hash(KvCache::kPlainPrefixSeed,
                                                                std::span(prompt).first(kBlock)),
                                      std::span(prompt).subspan(kBlock, kBlock)));

  KvCache target = sharing_cache(16);
  std::vector<std::byte> block(size_t(source.block_bytes()));
  for (size_t index = 0; index < 2; ++index) {
    source.save_block(1, index, block);
    const auto block_tokens = std::span(prompt).subspan(index * kBlock, kBlock);
    ASSERT_TRUE(target.restore_block(hashes[index], block_tokens, block));
    EXPECT_FALSE(target.restore_block(hashes[index], block_tokens, block));  // indexed already
  }
  EXPECT_EQ(target.sharing_stats().unheld_blocks, 2);
  EXPECT_EQ(target.attach_cached_prefix(7, prompt, 8), 8);
  EXPECT_EQ(target.keys(0, target.blocks(7)[1], 0)[0], uint16_t(104));
  EXPECT_EQ(target.values(0, target.blocks(7)[1], 0)[3], uint16_t(4242));
}

TEST(KvCacheSharing, WithoutSharingNothingAttaches) {
  KvCache cache(1, 1, kBlock, 64, kBlock);
  const std::vector<int32_t> prompt = tokens_from(0, 8);
  for (int64_t p = 0; p < 8; ++p) ASSERT_TRUE(cache.append(1, p).ok());
  cache.publish(1, prompt);
  EXPECT_EQ(cache.cached_prefix_length(prompt, 8), 0);
  EXPECT_EQ(cache.attach_cached_prefix(2, prompt, 8), 0);
  EXPECT_EQ(cache.sequence_length(2), 0);
}

}  // namespace
}  // namespace ingot::model
