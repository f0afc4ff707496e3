#include "server/responses/response_store.h"

namespace ingot::server::responses {
namespace {

// What an entry holds, as its JSON text would take: close enough to bound
// the store without walking the trees' allocations.
size_t size_of(const StoredResponse& stored) {
  return stored.response.dump().size() + stored.input_items.dump().size() +
         stored.conversation.dump().size();
}

}  // namespace

void ResponseStore::put(const std::string& id, std::shared_ptr<const StoredResponse> stored) {
  const size_t bytes = size_of(*stored);
  std::lock_guard lock(mutex_);
  if (auto it = entries_.find(id); it != entries_.end()) remove(it);
  if (max_entries_ == 0 || bytes > max_bytes_) return;
  recency_.push_front(id);
  entries_.emplace(id, Entry{std::move(stored), recency_.begin(), bytes});
  bytes_ += bytes;
  evict_past_bounds();
}

std::shared_ptr<const StoredResponse> ResponseStore::get(const std::string& id) {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(id);
  if (it == entries_.end()) return nullptr;
  recency_.splice(recency_.begin(), recency_, it->second.recency);
  return it->second.stored;
}

bool ResponseStore::erase(const std::string& id) {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(id);
  if (it == entries_.end()) return false;
  remove(it);
  return true;
}

size_t ResponseStore::size() const {
  std::lock_guard lock(mutex_);
  return entries_.size();
}

size_t ResponseStore::bytes() const {
  std::lock_guard lock(mutex_);
  return bytes_;
}

void ResponseStore::evict_past_bounds() {
  while (entries_.size() > max_entries_ || bytes_ > max_bytes_) {
    remove(entries_.find(recency_.back()));
  }
}

void ResponseStore::remove(std::unordered_map<std::string, Entry>::iterator it) {
  bytes_ -= it->second.bytes;
  recency_.erase(it->second.recency);
  entries_.erase(it);
}

}  // namespace ingot::server::responses
