#pragma once
// The prompt cache on disk (--prompt-cache DIR): KV blocks of long
// prefixes, kept across restarts and beyond what --cache-ram holds.
//
// A file holds one block: the tokens it stores, the hash of the prefix it
// ends (KvCache's chained block hash) and the one before it, and its keys
// and values as KvCache::save_block lays them out. Files live in
// DIR/<identity>/<prefix hash>.kv, where the identity names the model file,
// the cache's element type and its block layout, so a block is only ever
// looked up by the model and cache that wrote it. Each file is written
// under a temporary name and renamed, and carries a checksum: a file that
// is truncated, corrupt, or not what its name says is deleted with a
// warning, never trusted. The directory's files together stay under a
// byte bound, the least recently used going first (file times keep the
// order across restarts).
//
// Writes run on a thread of the store's own, so the engine thread only
// copies a block out and queues it; reads run on the caller's thread
// (the engine's, when a request arrives). A directory that cannot be
// written turns the store off, and a failed write (a full disk) stops
// writing; either says so once.

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace ingot::engine {

struct PromptDiskOptions {
  std::filesystem::path dir;
  int64_t max_bytes = int64_t{4096} << 20;  // every file in `dir`
  // Bytes of blocks queued for writing at most; a block that finds the
  // queue full is offered again later.
  int64_t max_queued_bytes = int64_t{256} << 20;
};

struct PromptDiskLayout {
  uint64_t identity = 0;  // model file, cache type and layout
  int64_t block_size = 0;
  int64_t block_bytes = 0;  // KvCache::block_bytes()
};

struct PromptDiskStats {
  int64_t files = 0;  // of this identity
  int64_t bytes = 0;  // every file in the directory
  int64_t blocks_written = 0;
  int64_t blocks_read = 0;
  int64_t files_rejected = 0;  // corrupt, truncated or foreign: deleted
  int64_t files_evicted = 0;
};

class PromptDiskStore {
 public:
  PromptDiskStore(PromptDiskOptions options, PromptDiskLayout layout);
  // Writes every queued block, then stops.
  ~PromptDiskStore();
  PromptDiskStore(const PromptDiskStore&) = delete;
  PromptDiskStore& operator=(const PromptDiskStore&) = delete;

  // False when the directory could not be used: nothing is read or written.
  bool enabled() const { return enabled_; }
  // False also once a write has failed.
  bool accepting() const;
  // Whether a block is stored (or queued) under `hash`.
  bool has(uint64_t hash) const;
  // The keys and values stored under `hash`, when its file holds exactly
  // the block that follows the prefix `parent` with `tokens`.
  std::optional<std::vector<std::byte>> load(uint64_t hash, uint64_t parent,
                                             std::span<const int32_t> tokens);
  // Queues a block for writing; false when the queue is full or writing
  // has stopped.
  bool save(uint64_t hash, uint64_t parent, std::span<const int32_t> tokens,
            std::vector<std::byte> payload);
  // Returns once every block queued so far is written or given up.
  void flush();

  PromptDiskStats stats() const;

 private:
  struct Pending {
    uint64_t hash;
    uint64_t parent;
    std::vector<int32_t> tokens;
    std::vector<std::byte> payload;
  };
  struct StoredFile {
    int64_t bytes;
    int64_t last_used;  // nanoseconds of the file clock
  };

  void open_directory();
  void scan();
  void write_loop();
  bool write_file(const Pending& block);
  void evict_to_fit();
  void reject(const std::filesystem::path& path, const char* why);
  void forget(const std::filesystem::path& path);
  std::filesystem::path path_of(uint64_t hash) const;
  int64_t file_bytes() const;

  PromptDiskOptions options_;
  PromptDiskLayout layout_;
  std::filesystem::path own_dir_;
  bool enabled_ = false;

  mutable std::mutex mutex_;
  std::condition_variable work_;
  std::condition_variable idle_;
  std::deque<Pending> queue_;
  int64_t queued_bytes_ = 0;
  bool writing_ = false;  // the writer holds a block taken off the queue
  bool write_failed_ = false;
  bool stopping_ = false;
  std::unordered_set<uint64_t> queued_;
  std::unordered_set<uint64_t> stored_;                // this identity's blocks on disk
  std::unordered_map<std::string, StoredFile> files_;  // every file, by path
  int64_t total_bytes_ = 0;
  PromptDiskStats counts_;
  std::thread writer_;
};

}  // namespace ingot::engine
