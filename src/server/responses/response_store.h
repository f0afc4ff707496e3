#pragma once
// The responses kept for `previous_response_id` and the retrieval routes:
// bounded in entries and in bytes, the least recently used going first.
// Shared by every I/O thread, so each call takes the lock; what a call
// returns is immutable and stays valid after an eviction.

#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <unordered_map>

namespace ingot::server::responses {

struct StoredResponse {
  nlohmann::ordered_json response;     // the response object as it was answered
  nlohmann::ordered_json input_items;  // the request's own input, as items with ids
  // Everything a continuation starts from: the previous conversation, this
  // input and this output, as items (not the instructions, which
  // OpenAI does not carry over).
  nlohmann::ordered_json conversation;
};

class ResponseStore {
 public:
  ResponseStore(size_t max_entries, size_t max_bytes)
      : max_entries_(max_entries), max_bytes_(max_bytes) {}

  // Keeps `stored` under `id`, evicting the least recently used entries
  // past either bound. An entry larger than the byte bound alone is not
  // kept.
  void put(const std::string& id, std::shared_ptr<const StoredResponse> stored);
  // The entry, now the most recently used; null when unknown or evicted.
  std::shared_ptr<const StoredResponse> get(const std::string& id);
  // Whether there was such an entry.
  bool erase(const std::string& id);

  size_t size() const;
  size_t bytes() const;

 private:
  struct Entry {
    std::shared_ptr<const StoredResponse> stored;
    std::list<std::string>::iterator recency;
    size_t bytes = 0;
  };

  void evict_past_bounds();
  void remove(std::unordered_map<std::string, Entry>::iterator it);

  const size_t max_entries_;
  const size_t max_bytes_;
  mutable std::mutex mutex_;
  std::list<std::string> recency_;  // the most recently used first
  std::unordered_map<std::string, Entry> entries_;
  size_t bytes_ = 0;
};

}  // namespace ingot::server::responses
