#include "model/kv_cache.h"

#include <xxhash.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "kernels/kv_tiles.h"

namespace ingot::model {
namespace {

// The hash of a prefix ending with `tokens`, the prefix before them hashed
// as `previous`. Never 0, which marks a block no index names.
uint64_t chain_hash(uint64_t previous, std::span<const int32_t> tokens) {
  const uint64_t hash = XXH3_64bits_withSeed(tokens.data(), tokens.size_bytes(), previous);
  return hash == 0 ? 1 : hash;
}

}  // namespace

KvCache::KvCache(int64_t n_layers, int64_t n_kv_heads, int64_t head_dim, int64_t n_cells,
                 int64_t block_size)
    : KvCache(std::vector<LayerShape>(size_t(n_layers), {n_kv_heads, head_dim}), n_cells,
              block_size) {}

KvCache::KvCache(std::vector<LayerShape> layers, int64_t n_cells, int64_t block_size,
                 int64_t cache_cells, Types types, WindowPlan window)
    : layers_(std::move(layers)),
      block_size_(block_size),
      initial_blocks_((n_cells + block_size - 1) / block_size),
      max_blocks_(initial_blocks_ + cache_cells / block_size),
      n_blocks_(initial_blocks_),
      types_(types) {
  const bool any_windowed = std::any_of(layers_.begin(), layers_.end(),
                                        [](const LayerShape& shape) { return shape.windowed; });
  if (window.window > 0 && any_windowed) {
    max_slots_ = std::min(max_blocks_, (window.cells + block_size - 1) / block_size);
    // Trimming pays only when the pool is smaller than the blocks.
    if (max_slots_ < max_blocks_) window_ = window.window;
  }
  size_t key_bytes = 0, value_bytes = 0;
  for (const LayerShape& shape : layers_) {
    Layer layer{shape.kv_heads,
                kernels::kv_tile_bytes(types.keys, shape.head_dim, block_size),
                kernels::kv_tile_bytes(types.values, shape.head_dim, block_size),
                key_bytes,
                value_bytes,
                shape.windowed && window_ > 0};
    const int64_t tiles = layer.in_slots ? max_slots_ : max_blocks_;
    key_bytes += size_t(tiles * shape.kv_heads) * layer.key_tile;
    value_bytes += size_t(tiles * shape.kv_heads) * layer.value_tile;
    layer_.push_back(layer);
  }
  storage_ = PageArena(PageArena::footprint(key_bytes) + PageArena::footprint(value_bytes));
  keys_ = reinterpret_cast<std::byte*>(storage_.take(key_bytes));
  values_ = reinterpret_cast<std::byte*>(storage_.take(value_bytes));
  clear();
}

int64_t KvCache::bytes_per_position(const std::vector<LayerShape>& layers, Types types) {
  // A block of 32 positions holds whole groups of every type.
  constexpr int64_t kPositions = 32;
  size_t bytes = 0;
  for (const LayerShape& shape : layers) {
    bytes +=
        size_t(shape.kv_heads) * (kernels::kv_tile_bytes(types.keys, shape.head_dim, kPositions) +
                                  kernels::kv_tile_bytes(types.values, shape.head_dim, kPositions));
  }
  return int64_t(bytes) / kPositions;
}

int64_t KvCache::bytes_for(const std::vector<LayerShape>& layers, int64_t n_cells, Types types,
                           WindowPlan window) {
  int64_t bytes = 0;
  for (const LayerShape& shape : layers) {
    const int64_t cells =
        shape.windowed && window.window > 0 ? std::min(n_cells, window.cells) : n_cells;
    bytes += bytes_per_position({shape}, types) * cells;
  }
  return bytes;
}

int64_t KvCache::sequence_length(SequenceId sequence) const {
  auto it = sequences_.find(sequence);
  return it == sequences_.end() ? 0 : it->second.length;
}

// A cut inside a block the sequence shares (or that an index names) leaves
// that block to the others: the sequence gets its own copy, or, with no
// block free, ends at the block's start.
void KvCache::truncate(SequenceId sequence, int64_t length) {
  auto it = sequences_.find(sequence);
  if (it == sequences_.end()) return;
  Sequence& s = it->second;
  if (length <= 0) return drop(sequence);
  if (length < recurrent_.length(sequence) && !recurrent_.restore(sequence, length)) {
    return drop(sequence);
  }
  if (length >= s.length) return;
  // A window cut back must find its blocks' slots; else nothing of the
  // sequence can be kept.
  if (trims_windows() && !window_has_slots(s.blocks, length)) return drop(sequence);
  size_t blocks_needed = size_t((length + block_size_ - 1) / block_size_);
  while (s.blocks.size() > blocks_needed) pop_block(s);
  if (length % block_size_ != 0 && !make_writable(s, blocks_needed - 1)) {
    pop_block(s);
    length = int64_t(s.blocks.size()) * block_size_;
    if (length == 0) return drop(sequence);
  }
  s.length = length;
  s.hashes.resize(std::min(s.hashes.size(), size_t(length / block_size_)));
  if (trims_windows()) {
    // The blocks the shorter sequence's window covers again count it.
    const size_t first = size_t(window_first_block(length));
    for (; s.window_start > first; --s.window_start) enter_window(s.blocks[s.window_start - 1]);
  }
}

// Gives the sequence's last block back.
void KvCache::pop_block(Sequence& s) {
  const size_t last = s.blocks.size() - 1;
  if (trims_windows() && last >= s.window_start) leave_window(s.blocks[last]);
  release(s.blocks[last]);
  s.blocks.pop_back();
  s.window_start = std::min(s.window_start, s.blocks.size());
}

void KvCache::drop(SequenceId sequence) {
  recurrent_.drop(sequence);
  auto it = sequences_.find(sequence);
  if (it == sequences_.end()) return;
  Sequence& s = it->second;
  if (trims_windows()) {
    for (size_t i = s.window_start; i < s.blocks.size(); ++i) leave_window(s.blocks[i]);
  }
  for (auto block = s.blocks.rbegin(); block != s.blocks.rend(); ++block) release(*block);
  sequences_.erase(it);
}

// With windows trimmed, the longest length whose window's blocks all still
// have their slots: `wanted`, a shorter block boundary, or 0.
int64_t KvCache::resumable_length(SequenceId sequence, int64_t wanted) const {
  int64_t length = std::min(wanted, sequence_length(sequence));
  if (trims_windows() && length > 0) {
    const std::vector<int32_t>& blocks = sequences_.at(sequence).blocks;
    if (!window_has_slots(blocks, length)) {
      length = length / block_size_ * block_size_;
      while (length > 0 && !window_has_slots(blocks, length)) length -= block_size_;
    }
  }
  if (recurrent_.empty_shape()) return length;
  return recurrent_.resumable(sequence, length);
}

void KvCache::clear() {
  recurrent_.clear();
  sequences_.clear();
  n_blocks_ = initial_blocks_;
  free_blocks_.clear();
  free_blocks_.reserve(n_blocks_);
  // Handed out from the back: block 0 first.
  for (int64_t b = n_blocks_ - 1; b >= 0; --b) free_blocks_.push_back(int32_t(b));
  holders_.assign(size_t(n_blocks_), 0);
  block_hash_.assign(size_t(n_blocks_), 0);
  block_tokens_.assign(size_t(n_blocks_), {});
  index_.clear();
  unheld_.clear();
  unheld_at_.assign(size_t(n_blocks_), unheld_.end());
  evictions_ = 0;
  slot_.assign(size_t(n_blocks_), -1);
  window_users_.assign(size_t(n_blocks_), 0);
  slot_block_.assign(size_t(max_slots_), -1);
  spare_.clear();
  spare_at_.assign(size_t(max_slots_), spare_.end());
  free_slots_.clear();
  for (int64_t slot = max_slots_ - 1; slot >= 0; --slot) free_slots_.push_back(int32_t(slot));
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
    int32_t block = take_block();
    if (block >= 0 && trims_windows() && !give_slot(block)) {
      release(block);
      block = -1;
    }
    if (block < 0) {
      if (s.length == 0) sequences_.erase(sequence);
      return Error(ErrorKind::kResourceExhausted, "the KV cache is full");
    }
    s.blocks.push_back(block);
    if (trims_windows()) enter_window(block);
  }
  ++s.length;
  return Cell{s.blocks.back(), int32_t(position % block_size_)};
}

const std::vector<int32_t>& KvCache::blocks(SequenceId sequence) const {
  static const std::vector<int32_t> kNone;
  auto it = sequences_.find(sequence);
  return it == sequences_.end() ? kNone : it->second.blocks;
}

uint64_t KvCache::prefix_seed(std::span<const uint64_t> salt) {
  if (salt.empty()) return kPlainPrefixSeed;
  const uint64_t hash = XXH3_64bits_withSeed(salt.data(), salt.size_bytes(), kPlainPrefixSeed);
  return hash == 0 || hash == kPlainPrefixSeed ? hash + 1 : hash;
}

int64_t KvCache::cached_prefix_length(std::span<const int32_t> tokens, int64_t limit,
                                      uint64_t seed) const {
  if (!sharing_) return 0;
  const int64_t end = std::min<int64_t>(limit, int64_t(tokens.size()));
  uint64_t chain = seed;
  std::vector<int32_t> found;
  while (int64_t(found.size() + 1) * block_size_ <= end) {
    const auto block_tokens =
        tokens.subspan(found.size() * size_t(block_size_), size_t(block_size_));
    const int32_t block = find_block(chain, block_tokens);
    if (block < 0) break;
    found.push_back(block);
    chain = chain_hash(chain, block_tokens);
  }
  int64_t length = int64_t(found.size()) * block_size_;
  while (trims_windows() && length > 0 && !window_has_slots(found, length)) length -= block_size_;
  return length;
}

int64_t KvCache::attach_cached_prefix(SequenceId sequence, std::span<const int32_t> tokens,
                                      int64_t limit, uint64_t seed) {
  Sequence& s = sequences_[sequence];
  if (!sharing_ || s.length % block_size_ != 0 || s.length > int64_t(tokens.size())) {
    const int64_t length = s.length;
    if (length == 0) sequences_.erase(sequence);
    return length;
  }
  publish(sequence, tokens, seed);
  uint64_t chain = s.hashes.empty() ? seed : s.hashes.back();
  const int64_t end = std::min<int64_t>(limit, int64_t(tokens.size()));
  // The blocks found, after the sequence's own; with windows trimmed, as
  // many as leave the window's blocks with their slots.
  std::vector<int32_t> blocks = s.blocks;
  std::vector<uint64_t> hashes;
  while (int64_t(blocks.size() + 1) * block_size_ <= end) {
    const auto block_tokens =
        tokens.subspan(blocks.size() * size_t(block_size_), size_t(block_size_));
    const int32_t block = find_block(chain, block_tokens);
    if (block < 0) break;
    blocks.push_back(block);
    chain = block_hash_[size_t(block)];
    hashes.push_back(chain);
  }
  const size_t own = s.blocks.size();
  size_t usable = blocks.size();
  while (trims_windows() && usable > own &&
         !window_has_slots(blocks, int64_t(usable) * block_size_)) {
    --usable;
  }
  for (size_t i = own; i < usable; ++i) {
    hold(blocks[i]);
    s.blocks.push_back(blocks[i]);
    if (trims_windows()) enter_window(blocks[i]);
    s.hashes.push_back(hashes[i - own]);
  }
  s.length = int64_t(s.blocks.size()) * block_size_;
  if (trims_windows()) slide_window(sequence);
  const int64_t length = s.length;
  if (length == 0) sequences_.erase(sequence);
  return length;
}

void KvCache::publish(SequenceId sequence, std::span<const int32_t> tokens, uint64_t seed) {
  if (!sharing_) return;
  auto it = sequences_.find(sequence);
  if (it == sequences_.end()) return;
  Sequence& s = it->second;
  const size_t full = size_t(std::min<int64_t>(s.length, int64_t(tokens.size())) / block_size_);
  while (s.hashes.size() < full) {
    const size_t index = s.hashes.size();
    const auto block_tokens = tokens.subspan(index * size_t(block_size_), size_t(block_size_));
    const uint64_t chain = chain_hash(index == 0 ? seed : s.hashes.back(), block_tokens);
    s.hashes.push_back(chain);
    const int32_t block = s.blocks[index];
    // A prefix another block already holds stays that block's.
    if (block_hash_[size_t(block)] != 0 || index_.contains(chain)) continue;
    index_.emplace(chain, block);
    block_hash_[size_t(block)] = chain;
    block_tokens_[size_t(block)].assign(block_tokens.begin(), block_tokens.end());
  }
}

uint64_t KvCache::next_prefix_hash(uint64_t previous, std::span<const int32_t> block_tokens) {
  return chain_hash(previous, block_tokens);
}

int64_t KvCache::block_bytes() const {
  size_t bytes = 0;
  for (const Layer& layer : layer_) {
    bytes += size_t(layer.kv_heads) * (layer.key_tile + layer.value_tile);
  }
  return int64_t(bytes);
}

std::span<const uint64_t> KvCache::prefix_hashes(SequenceId sequence) const {
  auto it = sequences_.find(sequence);
  if (it == sequences_.end()) return {};
  return it->second.hashes;
}

// A block's heads lie side by side within a layer, so each layer's keys
// and values are one run of bytes each.
void KvCache::save_block(SequenceId sequence, size_t index, std::span<std::byte> out) const {
  const int32_t block = sequences_.at(sequence).blocks.at(index);
  std::byte* to = out.data();
  for (size_t l = 0; l < layer_.size(); ++l) {
    const size_t keys = size_t(layer_[l].kv_heads) * layer_[l].key_tile;
    const size_t values = size_t(layer_[l].kv_heads) * layer_[l].value_tile;
    std::memcpy(to, key_tile(int64_t(l), block, 0), keys);
    std::memcpy(to + keys, value_tile(int64_t(l), block, 0), values);
    to += keys + values;
  }
}

bool KvCache::restore_block(uint64_t hash, std::span<const int32_t> block_tokens,
                            std::span<const std::byte> payload) {
  // A trimmed window's blocks are not saved whole (the engine keeps such a
  // cache off disk).
  if (trims_windows()) return false;
  if (!sharing_ || index_.contains(hash) || int64_t(block_tokens.size()) != block_size_ ||
      int64_t(payload.size()) != block_bytes()) {
    return false;
  }
  const int32_t block = take_block();
  if (block < 0) return false;
  const std::byte* from = payload.data();
  for (size_t l = 0; l < layer_.size(); ++l) {
    const size_t keys = size_t(layer_[l].kv_heads) * layer_[l].key_tile;
    const size_t values = size_t(layer_[l].kv_heads) * layer_[l].value_tile;
    std::memcpy(key_tile(int64_t(l), block, 0), from, keys);
    std::memcpy(value_tile(int64_t(l), block, 0), from + keys, values);
    from += keys + values;
  }
  index_.emplace(hash, block);
  block_hash_[size_t(block)] = hash;
  block_tokens_[size_t(block)].assign(block_tokens.begin(), block_tokens.end());
  release(block);
  return true;
}

KvCache::SharingStats KvCache::sharing_stats() const {
  return {int64_t(index_.size()), int64_t(unheld_.size()), evictions_};
}

int32_t KvCache::take_block() {
  int32_t block = -1;
  if (!free_blocks_.empty()) {
    block = free_blocks_.back();
    free_blocks_.pop_back();
  } else if (n_blocks_ < max_blocks_) {
    block = add_block();
  } else if (!unheld_.empty()) {
    block = unheld_.front();
    unheld_.pop_front();
    unheld_at_[size_t(block)] = unheld_.end();
    unindex(block);
    ++evictions_;
  } else {
    return -1;
  }
  holders_[size_t(block)] = 1;
  return block;
}

// A block of the prompt cache's room, made when first wanted: cached
// blocks then stay until all of the room is in use.
int32_t KvCache::add_block() {
  holders_.push_back(0);
  block_hash_.push_back(0);
  block_tokens_.emplace_back();
  unheld_at_.push_back(unheld_.end());
  slot_.push_back(-1);
  window_users_.push_back(0);
  return int32_t(n_blocks_++);
}

void KvCache::release(int32_t block) {
  if (--holders_[size_t(block)] > 0) return;
  if (block_hash_[size_t(block)] == 0) {
    if (trims_windows()) free_slot(block);
    free_blocks_.push_back(block);
    return;
  }
  unheld_.push_back(block);
  unheld_at_[size_t(block)] = std::prev(unheld_.end());
}

void KvCache::hold(int32_t block) {
  if (holders_[size_t(block)]++ > 0) return;
  unheld_.erase(unheld_at_[size_t(block)]);
  unheld_at_[size_t(block)] = unheld_.end();
}

// An indexed block held alone is copied too while a block can be had: the
// index keeps the prefix it names for the next request that starts with it.
bool KvCache::make_writable(Sequence& s, size_t index) {
  const int32_t block = s.blocks[index];
  const bool alone = holders_[size_t(block)] == 1;
  if (alone && block_hash_[size_t(block)] == 0) return true;
  int32_t copy = take_block();
  if (copy >= 0 && trims_windows() && !give_slot(copy)) {
    release(copy);
    copy = -1;
  }
  if (copy < 0) {
    if (!alone) return false;
    unindex(block);
    return true;
  }
  copy_block(block, copy);
  const bool in_window = trims_windows() && index >= s.window_start;
  if (in_window) enter_window(copy);
  if (in_window) leave_window(block);
  release(block);
  s.blocks[index] = copy;
  return true;
}

void KvCache::copy_block(int32_t from, int32_t to) {
  for (size_t l = 0; l < layer_.size(); ++l) {
    // A windowed layer's tiles move only where both blocks have slots.
    if (layer_[l].in_slots && (slot_[size_t(from)] < 0 || slot_[size_t(to)] < 0)) continue;
    std::memcpy(key_tile(int64_t(l), to, 0), key_tile(int64_t(l), from, 0),
                size_t(layer_[l].kv_heads) * layer_[l].key_tile);
    std::memcpy(value_tile(int64_t(l), to, 0), value_tile(int64_t(l), from, 0),
                size_t(layer_[l].kv_heads) * layer_[l].value_tile);
  }
}

void KvCache::unindex(int32_t block) {
  uint64_t& hash = block_hash_[size_t(block)];
  if (hash == 0) return;
  index_.erase(hash);
  hash = 0;
  block_tokens_[size_t(block)].clear();
}

// The first block of a sequence of `length` positions whose window (and
// the block's margin before it) reaches into it.
int64_t KvCache::window_first_block(int64_t length) const {
  return std::max<int64_t>(0, length - window_ - block_size_) / block_size_;
}

// Whether blocks [window_first_block(length), the block of length - 1] of
// `blocks` all have slots.
bool KvCache::window_has_slots(const std::vector<int32_t>& blocks, int64_t length) const {
  const int64_t end =
      std::min<int64_t>(int64_t(blocks.size()), (length + block_size_ - 1) / block_size_);
  for (int64_t i = window_first_block(length); i < end; ++i) {
    if (slot_[size_t(blocks[size_t(i)])] < 0) return false;
  }
  return true;
}

void KvCache::slide_window(SequenceId sequence) {
  if (!trims_windows()) return;
  auto it = sequences_.find(sequence);
  if (it == sequences_.end()) return;
  Sequence& s = it->second;
  const size_t first = std::min(size_t(window_first_block(s.length)), s.blocks.size());
  for (; s.window_start < first; ++s.window_start) leave_window(s.blocks[s.window_start]);
}

// A block about to be written gets a slot: its own (no longer a spare),
// else a free one, else the least recently spared (whose block loses it).
bool KvCache::give_slot(int32_t block) {
  int32_t slot = slot_[size_t(block)];
  if (slot >= 0) {
    if (spare_at_[size_t(slot)] != spare_.end()) {
      spare_.erase(spare_at_[size_t(slot)]);
      spare_at_[size_t(slot)] = spare_.end();
    }
    return true;
  }
  slot = take_slot();
  if (slot < 0) return false;
  slot_[size_t(block)] = slot;
  slot_block_[size_t(slot)] = block;
  return true;
}

int32_t KvCache::take_slot() {
  if (!free_slots_.empty()) {
    const int32_t slot = free_slots_.back();
    free_slots_.pop_back();
    return slot;
  }
  if (spare_.empty()) return -1;
  const int32_t slot = spare_.front();
  spare_.pop_front();
  spare_at_[size_t(slot)] = spare_.end();
  slot_[size_t(slot_block_[size_t(slot)])] = -1;
  slot_block_[size_t(slot)] = -1;
  return slot;
}

void KvCache::enter_window(int32_t block) {
  if (window_users_[size_t(block)]++ > 0) return;
  const int32_t slot = slot_[size_t(block)];
  if (slot >= 0 && spare_at_[size_t(slot)] != spare_.end()) {
    spare_.erase(spare_at_[size_t(slot)]);
    spare_at_[size_t(slot)] = spare_.end();
  }
}

void KvCache::leave_window(int32_t block) {
  if (--window_users_[size_t(block)] > 0) return;
  const int32_t slot = slot_[size_t(block)];
  if (slot < 0) return;
  spare_.push_back(slot);
  spare_at_[size_t(slot)] = std::prev(spare_.end());
}

// A block freed for good frees its slot.
void KvCache::free_slot(int32_t block) {
  const int32_t slot = slot_[size_t(block)];
  if (slot < 0) return;
  if (spare_at_[size_t(slot)] != spare_.end()) {
    spare_.erase(spare_at_[size_t(slot)]);
    spare_at_[size_t(slot)] = spare_.end();
  }
  slot_[size_t(block)] = -1;
  slot_block_[size_t(slot)] = -1;
  free_slots_.push_back(slot);
}

int32_t KvCache::find_block(uint64_t chain, std::span<const int32_t> tokens) const {
  auto it = index_.find(chain_hash(chain, tokens));
  if (it == index_.end()) return -1;
  const std::vector<int32_t>& stored = block_tokens_[size_t(it->second)];
  // The chain hash names the whole prefix; the tokens tell a collision.
  if (!std::equal(stored.begin(), stored.end(), tokens.begin(), tokens.end())) return -1;
  return it->second;
}

}  // namespace ingot::model
