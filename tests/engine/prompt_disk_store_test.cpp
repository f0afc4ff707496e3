#include "engine/prompt_disk_store.h"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <string>
#include <vector>

namespace ingot::engine {
namespace {
namespace fs = std::filesystem;

constexpr int64_t kBlockSize = 4;
constexpr int64_t kBlockBytes = 64;

PromptDiskLayout layout(uint64_t identity = 0xABCD, int64_t block_bytes = kBlockBytes) {
  return {identity, kBlockSize, block_bytes};
}

std::vector<int32_t> tokens_of(int32_t first) {
  std::vector<int32_t> tokens(kBlockSize);
  std::iota(tokens.begin(), tokens.end(), first);
  return tokens;
}

std::vector<std::byte> payload_of(int seed, int64_t bytes = kBlockBytes) {
  std::vector<std::byte> payload(static_cast<size_t>(bytes));
  for (size_t i = 0; i < payload.size(); ++i) payload[i] = std::byte((seed * 31 + i) & 0xFF);
  return payload;
}

class PromptDiskStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("ingot-disk-store-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
  }
  void TearDown() override {
    std::error_code ignored;
    fs::permissions(dir_, fs::perms::owner_all, fs::perm_options::add, ignored);
    fs::remove_all(dir_, ignored);
  }

  PromptDiskOptions options(int64_t max_bytes = int64_t{1} << 20) const {
    PromptDiskOptions options;
    options.dir = dir_;
    options.max_bytes = max_bytes;
    return options;
  }

  // Writes blocks 1..n (hash i, parent i - 1) and waits for them.
  void write_blocks(PromptDiskStore& store, int n) {
    for (int i = 1; i <= n; ++i) ASSERT_TRUE(store.save(i, i - 1, tokens_of(i), payload_of(i)));
    store.flush();
  }

  // The one file of `identity` holding hash `hash`.
  fs::path file_of(uint64_t hash, uint64_t identity = 0xABCD) const {
    char name[64];
    std::snprintf(name, sizeof name, "%016llx/%016llx.kv", (unsigned long long)identity,
                  (unsigned long long)hash);
    return dir_ / name;
  }

  fs::path dir_;
};

TEST_F(PromptDiskStoreTest, ABlockWrittenIsReadBackAfterARestart) {
  {
    PromptDiskStore store(options(), layout());
    ASSERT_TRUE(store.enabled());
    write_blocks(store, 3);
    EXPECT_EQ(store.stats().blocks_written, 3);
  }
  PromptDiskStore store(options(), layout());
  EXPECT_TRUE(store.has(2));
  auto payload = store.load(2, 1, tokens_of(2));
  ASSERT_TRUE(payload.has_value());
  EXPECT_EQ(*payload, payload_of(2));
  EXPECT_EQ(store.stats().files, 3);
  EXPECT_EQ(store.stats().blocks_read, 1);
}

TEST_F(PromptDiskStoreTest, AnotherPrefixUnderTheSameHashIsAMissAndTheFileStays) {
  PromptDiskStore store(options(), layout());
  write_blocks(store, 1);
  EXPECT_FALSE(store.load(1, 0, tokens_of(7)).has_value());
  EXPECT_FALSE(store.load(1, 5, tokens_of(1)).has_value());
  EXPECT_TRUE(fs::exists(file_of(1)));
  EXPECT_EQ(store.stats().files_rejected, 0);
}

TEST_F(PromptDiskStoreTest, ACorruptFileIsDeletedUnread) {
  {
    PromptDiskStore store(options(), layout());
    write_blocks(store, 1);
  }
  {
    std::fstream file(file_of(1), std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(-3, std::ios::end);
    file.put('\x5A');
  }
  PromptDiskStore store(options(), layout());
  EXPECT_FALSE(store.load(1, 0, tokens_of(1)).has_value());
  EXPECT_FALSE(fs::exists(file_of(1)));
  EXPECT_FALSE(store.has(1));
  EXPECT_EQ(store.stats().files_rejected, 1);
}

TEST_F(PromptDiskStoreTest, ATruncatedFileIsDeletedUnread) {
  {
    PromptDiskStore store(options(), layout());
    write_blocks(store, 1);
  }
  fs::resize_file(file_of(1), fs::file_size(file_of(1)) - 10);
  PromptDiskStore store(options(), layout());
  EXPECT_FALSE(store.load(1, 0, tokens_of(1)).has_value());
  EXPECT_FALSE(fs::exists(file_of(1)));
  EXPECT_EQ(store.stats().files_rejected, 1);
}

TEST_F(PromptDiskStoreTest, AnotherModelsFilesAreNeverLookedUpAndOneMovedInIsRejected) {
  {
    PromptDiskStore other(options(), layout(0x1111));
    write_blocks(other, 1);
  }
  PromptDiskStore store(options(), layout());
  EXPECT_FALSE(store.has(1));
  EXPECT_TRUE(fs::exists(file_of(1, 0x1111)));  // another model's: left alone
  fs::create_directories(file_of(1).parent_path());
  fs::copy_file(file_of(1, 0x1111), file_of(1));
  PromptDiskStore reopened(options(), layout());
  EXPECT_TRUE(reopened.has(1));
  EXPECT_FALSE(reopened.load(1, 0, tokens_of(1)).has_value());
  EXPECT_FALSE(fs::exists(file_of(1)));
  EXPECT_EQ(reopened.stats().files_rejected, 1);
}

// Another cache type or block layout under the same name: the identity
// names them, but a file moved or renamed is still told by its header.
TEST_F(PromptDiskStoreTest, AFileOfAnotherCacheLayoutIsRejected) {
  {
    PromptDiskStore store(options(), layout(0xABCD, 2 * kBlockBytes));
    ASSERT_TRUE(store.save(1, 0, tokens_of(1), payload_of(1, 2 * kBlockBytes)));
    store.flush();
  }
  PromptDiskStore store(options(), layout());
  EXPECT_FALSE(store.load(1, 0, tokens_of(1)).has_value());
  EXPECT_EQ(store.stats().files_rejected, 1);
}

TEST_F(PromptDiskStoreTest, TheDirectoryStaysWithinItsBoundLeastRecentlyUsedFirst) {
  const int64_t file_bytes = [&] {
    PromptDiskStore probe(options(), layout(0x2222));
    write_blocks(probe, 1);
    return int64_t(fs::file_size(file_of(1, 0x2222)));
  }();
  fs::remove_all(dir_);
  PromptDiskStore store(options(10 * file_bytes), layout());
  write_blocks(store, 5);
  ASSERT_TRUE(store.load(1, 0, tokens_of(1)).has_value());  // 1 is now the most recent
  for (int i = 6; i <= 12; ++i) ASSERT_TRUE(store.save(i, i - 1, tokens_of(i), payload_of(i)));
  store.flush();
  const PromptDiskStats stats = store.stats();
  EXPECT_LE(stats.bytes, 10 * file_bytes);
  EXPECT_GT(stats.files_evicted, 0);
  EXPECT_TRUE(store.has(1));
  EXPECT_FALSE(store.has(2));
  EXPECT_TRUE(store.has(12));
}

TEST_F(PromptDiskStoreTest, ADirectoryThatCannotBeWrittenLeavesTheStoreOff) {
  fs::create_directories(dir_.parent_path());
  { std::ofstream(dir_) << "a file, not a directory"; }
  PromptDiskStore store(options(), layout());
  EXPECT_FALSE(store.enabled());
  EXPECT_FALSE(store.save(1, 0, tokens_of(1), payload_of(1)));
  EXPECT_FALSE(store.load(1, 0, tokens_of(1)).has_value());
  fs::remove(dir_);
}

TEST_F(PromptDiskStoreTest, AReadOnlyDirectoryLeavesTheStoreOff) {
  if (::geteuid() == 0) GTEST_SKIP() << "root writes through permissions";
  fs::create_directories(dir_);
  fs::permissions(dir_, fs::perms::owner_read | fs::perms::owner_exec);
  PromptDiskStore store(options(), layout());
  EXPECT_FALSE(store.enabled());
}

// A write that fails (here: past the file size limit, as a full disk
// would) stops writing; what is on disk still reads.
TEST_F(PromptDiskStoreTest, AFailedWriteStopsWritingAndTheStoreStillReads) {
  PromptDiskStore store(options(), layout());
  write_blocks(store, 1);
  rlimit previous;
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &previous), 0);
  auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  rlimit small = previous;
  small.rlim_cur = 16;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  ASSERT_TRUE(store.save(2, 1, tokens_of(2), payload_of(2)));
  store.flush();
  ::setrlimit(RLIMIT_FSIZE, &previous);
  std::signal(SIGXFSZ, old_handler);

  EXPECT_FALSE(store.accepting());
  EXPECT_FALSE(store.has(2));
  EXPECT_FALSE(store.save(3, 2, tokens_of(3), payload_of(3)));
  EXPECT_TRUE(store.load(1, 0, tokens_of(1)).has_value());
  for (const auto& entry : fs::recursive_directory_iterator(dir_)) {
    EXPECT_NE(entry.path().extension(), ".tmp") << entry.path();
  }
}

}  // namespace
}  // namespace ingot::engine
