#include "model/kv_cache.h"

#include <algorithm>
#include <string>

namespace ingot::model {

KvCache::KvCache(int64_t n_layers, int64_t n_kv_heads, int64_t head_dim, int64_t n_cells,
                 int64_t block_size)
    : KvCache(std::vector<int64_t>(size_t(n_layers), head_dim), n_kv_heads, n_cells, block_size) {}

KvCache::KvCache(std::vector<int64_t> head_dims, int64_t n_kv_heads, int64_t n_cells,
                 int64_t block_size)
    : head_dims_(std::move(head_dims)),
      n_kv_heads_(n_kv_heads),
      block_size_(block_size),
      n_blocks_((n_cells + block_size - 1) / block_size) {
  size_t elements = 0;
  for (int64_t head_dim : head_dims_) {
    layer_offsets_.push_back(elements);
    elements += size_t(n_blocks_ * n_kv_heads_ * block_size_ * head_dim);
  }
  keys_.resize(elements);
  values_.resize(elements);
  clear();
}

int64_t KvCache::sequence_length(SequenceId sequence) const {
  auto it = sequences_.find(sequence);
  return it == sequences_.end() ? 0 : it->second.length;
}

void KvCache::truncate(SequenceId sequence, int64_t length) {
  auto it = sequences_.find(sequence);
  if (it == sequences_.end()) return;
  Sequence& s = it->second;
  if (length <= 0) return drop(sequence);
  if (length < recurrent_.length(sequence) && !recurrent_.restore(sequence, length)) {
    return drop(sequence);
  }
  if (length >= s.length) return;
  const size_t blocks_needed = size_t((length + block_size_ - 1) / block_size_);
  while (s.blocks.size() > blocks_needed) {
    free_blocks_.push_back(s.blocks.back());
    s.blocks.pop_back();
  }
  s.length = length;
}

void KvCache::drop(SequenceId sequence) {
  recurrent_.drop(sequence);
  auto it = sequences_.find(sequence);
  if (it == sequences_.end()) return;
  for (auto block = it->second.blocks.rbegin(); block != it->second.blocks.rend(); ++block) {
    free_blocks_.push_back(*block);
  }
  sequences_.erase(it);
}

int64_t KvCache::resumable_length(SequenceId sequence, int64_t wanted) const {
  const int64_t length = std::min(wanted, sequence_length(sequence));
  if (recurrent_.empty_shape()) return length;
  return recurrent_.resumable(sequence, length);
}

void KvCache::clear() {
  recurrent_.clear();
  sequences_.clear();
  free_blocks_.clear();
  free_blocks_.reserve(n_blocks_);
  // Handed out from the back: block 0 first.
  for (int64_t b = n_blocks_ - 1; b >= 0; --b) free_blocks_.push_back(int32_t(b));
}

Result<KvCache::Cell> KvCache::append(SequenceId sequence, int64_t position) {
  Sequence& s = sequences_[sequence];
  if (position != s.length) {
    const int64_t length = s.length;
    if (length == 0) sequences_.erase(sequence);
    return invalid_argument("sequence " + std::to_string(sequence) + " has " +
                            std::to_string(length) + " cached positions; position " +
                            std::to_string(position) + " cannot come next");
  }
  if (position % block_size_ == 0) {
    if (free_blocks_.empty()) {
      if (s.length == 0) sequences_.erase(sequence);
      return Error(ErrorKind::kResourceExhausted, "the KV cache is full");
    }
    s.blocks.push_back(free_blocks_.back());
    free_blocks_.pop_back();
  }
  ++s.length;
  return Cell{s.blocks.back(), int32_t(position % block_size_)};
}

const std::vector<int32_t>& KvCache::blocks(SequenceId sequence) const {
  static const std::vector<int32_t> kNone;
  auto it = sequences_.find(sequence);
  return it == sequences_.end() ? kNone : it->second.blocks;
}

}  // namespace ingot::model
