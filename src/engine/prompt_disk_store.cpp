#include "engine/prompt_disk_store.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace ingot::engine {
namespace fs = std::filesystem;
namespace {

constexpr char kMagic[8] = {'I', 'N', 'G', 'O', 'T', 'K', 'V', '\n'};
constexpr uint32_t kVersion = 1;
// A temporary file this old was left by a writer that died.
constexpr auto kStaleTemporary = std::chrono::hours(1);

struct FileHeader {
  char magic[8];
  uint32_t version;
  uint32_t block_size;
  uint64_t identity;
  uint64_t hash;    // the prefix the block ends
  uint64_t parent;  // the prefix before it
  uint64_t payload_bytes;
  uint64_t checksum;  // of the tokens and payload that follow
};

uint64_t checksum(const FileHeader& header, std::span<const int32_t> tokens,
                  std::span<const std::byte> payload) {
  XXH3_state_t* state = XXH3_createState();
  XXH3_64bits_reset_withSeed(state, header.identity ^ header.hash ^ header.parent);
  XXH3_64bits_update(state, tokens.data(), tokens.size_bytes());
  XXH3_64bits_update(state, payload.data(), payload.size_bytes());
  const uint64_t sum = XXH3_64bits_digest(state);
  XXH3_freeState(state);
  return sum;
}

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             fs::file_time_type::clock::now().time_since_epoch())
      .count();
}

int64_t time_ns(fs::file_time_type time) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(time.time_since_epoch()).count();
}

std::optional<uint64_t> parse_hex(const std::string& text) {
  if (text.size() != 16) return std::nullopt;
  uint64_t value = 0;
  for (char c : text) {
    int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    if (digit < 0) return std::nullopt;
    value = value << 4 | uint64_t(digit);
  }
  return value;
}

bool read_exact(std::FILE* file, void* to, size_t bytes) {
  return std::fread(to, 1, bytes, file) == bytes;
}

// Reads a block file whole into `header`, `tokens` and `payload`; what is
// wrong with it, or nullptr.
const char* read_block(std::FILE* file, uint64_t hash, const PromptDiskLayout& layout,
                       FileHeader& header, std::span<int32_t> tokens,
                       std::span<std::byte> payload) {
  if (!read_exact(file, &header, sizeof header) ||
      std::memcmp(header.magic, kMagic, sizeof kMagic) != 0 || header.version != kVersion) {
    return "it is not an ingot KV block";
  }
  if (header.identity != layout.identity || header.block_size != uint32_t(layout.block_size) ||
      header.payload_bytes != uint64_t(layout.block_bytes)) {
    return "another model or cache type wrote it";
  }
  char extra;
  if (!read_exact(file, tokens.data(), tokens.size_bytes()) ||
      !read_exact(file, payload.data(), payload.size()) || std::fread(&extra, 1, 1, file) != 0) {
    return "its size is not a block's";
  }
  if (header.hash != hash || header.checksum != checksum(header, tokens, payload)) {
    return "its checksum does not match";
  }
  return nullptr;
}

}  // namespace

PromptDiskStore::PromptDiskStore(PromptDiskOptions options, PromptDiskLayout layout)
    : options_(std::move(options)),
      layout_(layout),
      own_dir_(options_.dir / fmt::format("{:016x}", layout.identity)) {
  open_directory();
  if (!enabled_) return;
  scan();
  {
    std::lock_guard lock(mutex_);
    evict_to_fit();
  }
  writer_ = std::thread([this] { write_loop(); });
}

PromptDiskStore::~PromptDiskStore() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  work_.notify_all();
  if (writer_.joinable()) writer_.join();
}

// The directory must take a file: one that cannot (read-only, not a
// directory, no permission) leaves the cache in memory only.
void PromptDiskStore::open_directory() {
  std::error_code error;
  fs::create_directories(own_dir_, error);
  const fs::path probe = own_dir_ / fmt::format(".probe-{}", ::getpid());
  if (!error) {
    std::FILE* file = std::fopen(probe.c_str(), "wb");
    if (file == nullptr) {
      error = std::error_code(errno, std::generic_category());
    } else {
      std::fclose(file);
      fs::remove(probe, error);
    }
  }
  if (error) {
    spdlog::warn("--prompt-cache {}: cannot write there ({}); prefixes stay in memory only",
                 options_.dir.string(), error.message());
    return;
  }
  enabled_ = true;
}

// Every block file under the directory counts towards its bound, whoever
// wrote it; only this identity's are looked up.
void PromptDiskStore::scan() {
  std::error_code error;
  const auto stale_before = fs::file_time_type::clock::now() - kStaleTemporary;
  for (auto it = fs::recursive_directory_iterator(
           options_.dir, fs::directory_options::skip_permission_denied, error);
       !error && it != fs::recursive_directory_iterator(); it.increment(error)) {
    std::error_code entry_error;
    if (!it->is_regular_file(entry_error)) continue;
    const fs::path& path = it->path();
    const auto written = it->last_write_time(entry_error);
    if (path.extension() == ".tmp") {
      if (!entry_error && written < stale_before) fs::remove(path, entry_error);
      continue;
    }
    if (path.extension() != ".kv") continue;
    const auto bytes = int64_t(it->file_size(entry_error));
    if (entry_error) continue;
    files_[path.string()] = {bytes, time_ns(written)};
    total_bytes_ += bytes;
    if (path.parent_path() != own_dir_) continue;
    if (auto hash = parse_hex(path.stem().string())) stored_.insert(*hash);
  }
}

bool PromptDiskStore::accepting() const {
  if (!enabled_) return false;
  std::lock_guard lock(mutex_);
  return !write_failed_;
}

bool PromptDiskStore::has(uint64_t hash) const {
  std::lock_guard lock(mutex_);
  return stored_.contains(hash) || queued_.contains(hash);
}

std::optional<std::vector<std::byte>> PromptDiskStore::load(uint64_t hash, uint64_t parent,
                                                            std::span<const int32_t> tokens) {
  if (!enabled_) return std::nullopt;
  {
    std::lock_guard lock(mutex_);
    if (!stored_.contains(hash)) return std::nullopt;
  }
  const fs::path path = path_of(hash);
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) {  // evicted since, or removed by hand
    std::lock_guard lock(mutex_);
    forget(path);
    return std::nullopt;
  }
  FileHeader header{};
  std::vector<int32_t> stored_tokens(size_t(layout_.block_size));
  std::vector<std::byte> payload(size_t(layout_.block_bytes));
  const char* wrong = read_block(file, hash, layout_, header, stored_tokens, payload);
  std::fclose(file);
  if (wrong != nullptr) {
    reject(path, wrong);
    return std::nullopt;
  }
  // Another prefix with the same hash: a miss, the file stays.
  if (header.parent != parent ||
      !std::equal(tokens.begin(), tokens.end(), stored_tokens.begin(), stored_tokens.end())) {
    return std::nullopt;
  }
  std::error_code error;
  fs::last_write_time(path, fs::file_time_type::clock::now(), error);
  std::lock_guard lock(mutex_);
  auto it = files_.find(path.string());
  if (it != files_.end()) it->second.last_used = now_ns();
  ++counts_.blocks_read;
  return payload;
}

void PromptDiskStore::reject(const fs::path& path, const char* why) {
  spdlog::warn("--prompt-cache: deleting {}: {}", path.string(), why);
  std::error_code error;
  fs::remove(path, error);
  std::lock_guard lock(mutex_);
  forget(path);
  ++counts_.files_rejected;
}

// Called with the mutex held.
void PromptDiskStore::forget(const fs::path& path) {
  auto it = files_.find(path.string());
  if (it != files_.end()) {
    total_bytes_ -= it->second.bytes;
    files_.erase(it);
  }
  if (path.parent_path() != own_dir_) return;
  if (auto hash = parse_hex(path.stem().string())) stored_.erase(*hash);
}

bool PromptDiskStore::save(uint64_t hash, uint64_t parent, std::span<const int32_t> tokens,
                           std::vector<std::byte> payload) {
  if (!enabled_ || int64_t(payload.size()) != layout_.block_bytes ||
      int64_t(tokens.size()) != layout_.block_size) {
    return false;
  }
  {
    std::lock_guard lock(mutex_);
    if (write_failed_ || stopping_) return false;
    if (stored_.contains(hash) || queued_.contains(hash)) return true;
    if (queued_bytes_ + int64_t(payload.size()) > options_.max_queued_bytes) return false;
    queued_bytes_ += int64_t(payload.size());
    queued_.insert(hash);
    queue_.push_back({hash, parent, {tokens.begin(), tokens.end()}, std::move(payload)});
  }
  work_.notify_one();
  return true;
}

void PromptDiskStore::flush() {
  std::unique_lock lock(mutex_);
  idle_.wait(lock, [&] { return queue_.empty() && !writing_; });
}

void PromptDiskStore::write_loop() {
  std::unique_lock lock(mutex_);
  for (;;) {
    work_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return;
    Pending block = std::move(queue_.front());
    queue_.pop_front();
    writing_ = true;
    const bool skip = write_failed_;
    lock.unlock();
    const bool written = !skip && write_file(block);
    lock.lock();
    writing_ = false;
    queued_bytes_ -= int64_t(block.payload.size());
    queued_.erase(block.hash);
    if (written) {
      const fs::path path = path_of(block.hash);
      auto [it, added] = files_.try_emplace(path.string(), StoredFile{file_bytes(), now_ns()});
      if (added) total_bytes_ += it->second.bytes;
      stored_.insert(block.hash);
      ++counts_.blocks_written;
      evict_to_fit();
    } else if (!skip) {
      write_failed_ = true;
    }
    if (queue_.empty()) idle_.notify_all();
  }
}

// Written whole under a temporary name, then renamed: a reader never sees
// part of a file, and a crash leaves only a temporary file behind.
bool PromptDiskStore::write_file(const Pending& block) {
  FileHeader header{};
  std::memcpy(header.magic, kMagic, sizeof kMagic);
  header.version = kVersion;
  header.block_size = uint32_t(layout_.block_size);
  header.identity = layout_.identity;
  header.hash = block.hash;
  header.parent = block.parent;
  header.payload_bytes = uint64_t(layout_.block_bytes);
  header.checksum = checksum(header, block.tokens, block.payload);

  const fs::path path = path_of(block.hash);
  fs::path temporary = path;
  temporary += fmt::format(".{}.tmp", ::getpid());
  errno = 0;
  std::FILE* file = std::fopen(temporary.c_str(), "wb");
  bool ok =
      file != nullptr && std::fwrite(&header, sizeof header, 1, file) == 1 &&
      std::fwrite(block.tokens.data(), 4, block.tokens.size(), file) == block.tokens.size() &&
      std::fwrite(block.payload.data(), 1, block.payload.size(), file) == block.payload.size();
  std::error_code error;
  if (!ok) error = std::error_code(errno != 0 ? errno : EIO, std::generic_category());
  if (file != nullptr && std::fclose(file) != 0 && ok) {
    ok = false;
    error = std::error_code(errno, std::generic_category());
  }
  if (ok) fs::rename(temporary, path, error);
  if (ok && !error) return true;
  std::error_code ignored;
  fs::remove(temporary, ignored);
  spdlog::warn("--prompt-cache {}: writing a block failed ({}); no more blocks are written",
               options_.dir.string(), error.message());
  return false;
}

// Called with the mutex held, after a write: the least recently used files
// go until the directory is a tenth under its bound, so that eviction runs
// once per many writes rather than at every one.
void PromptDiskStore::evict_to_fit() {
  if (total_bytes_ <= options_.max_bytes) return;
  std::vector<std::pair<int64_t, std::string>> by_use;
  by_use.reserve(files_.size());
  for (const auto& [path, file] : files_) by_use.emplace_back(file.last_used, path);
  std::sort(by_use.begin(), by_use.end());
  const int64_t target = options_.max_bytes - options_.max_bytes / 10;
  for (const auto& [last_used, path] : by_use) {
    if (total_bytes_ <= target) break;
    std::error_code error;
    fs::remove(path, error);
    forget(path);
    ++counts_.files_evicted;
  }
}

fs::path PromptDiskStore::path_of(uint64_t hash) const {
  return own_dir_ / fmt::format("{:016x}.kv", hash);
}

int64_t PromptDiskStore::file_bytes() const {
  return int64_t(sizeof(FileHeader)) + layout_.block_size * 4 + layout_.block_bytes;
}

PromptDiskStats PromptDiskStore::stats() const {
  std::lock_guard lock(mutex_);
  PromptDiskStats stats = counts_;
  stats.files = int64_t(stored_.size());
  stats.bytes = total_bytes_;
  return stats;
}

}  // namespace ingot::engine
