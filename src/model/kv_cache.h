#pragma once
// The keys and values of every sequence's past positions, in F16.
//
// Cells are handed out in fixed-size blocks: a sequence owns a list of
// blocks, and position p of that sequence lives in cell p % block_size of
// its block p / block_size. Sequences of any lengths share one pool without
// fragmenting it; dropping a sequence returns its blocks, and truncating it
// returns the blocks past the new end (continuous batching and prefix reuse
// need both). Within a block, each KV head has one contiguous tile of keys
// and one of values. Keys are dimension-major, [head_dim][block_size], and
// values position-major, [block_size][head_dim]: the orders attention
// reads them in (see kernels/ops_attention.h).
//
// A hybrid model's cache also holds each sequence's recurrent state
// (RecurrentStates); its keys and values are those of the attention layers
// alone. The two move together: a sequence is kept to a shorter length
// only where its recurrent state allows it (resumable_length).

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "model/recurrent_state.h"
#include "util/status.h"

namespace ingot::model {

class KvCache {
 public:
  static constexpr int64_t kDefaultBlockSize = 32;

  // Room for `n_cells` positions in all (rounded up to whole blocks).
  KvCache(int64_t n_layers, int64_t n_kv_heads, int64_t head_dim, int64_t n_cells,
          int64_t block_size = kDefaultBlockSize);
  // Layers whose heads differ in size (Gemma 4's sliding and global layers).
  KvCache(std::vector<int64_t> head_dims, int64_t n_kv_heads, int64_t n_cells,
          int64_t block_size = kDefaultBlockSize);

  int64_t block_size() const { return block_size_; }
  int64_t capacity() const { return n_blocks_ * block_size_; }
  // Cells not owned by any sequence.
  int64_t free_cells() const { return int64_t(free_blocks_.size()) * block_size_; }

  // Positions stored for `sequence`: 0 for a sequence never seen or dropped.
  int64_t sequence_length(SequenceId sequence) const;
  // Every position of `sequence` from `length` on is forgotten. A length
  // shorter than its recurrent state's puts the state back to its snapshot
  // there, or forgets the whole sequence when there is none.
  void truncate(SequenceId sequence, int64_t length);
  // Forgets the sequence and frees all its cells.
  void drop(SequenceId sequence);
  void clear();

  // Hybrid models: every sequence also carries a recurrent state.
  void add_recurrent_state(RecurrentShape shape) { recurrent_ = RecurrentStates(shape); }
  RecurrentStates& recurrent() { return recurrent_; }
  const RecurrentStates& recurrent() const { return recurrent_; }
  // The longest length up to `wanted` that truncate() keeps `sequence`
  // at without recomputing anything: `wanted` itself, except that a
  // recurrent state goes back only to a snapshot (else to 0).
  int64_t resumable_length(SequenceId sequence, int64_t wanted) const;

  // Where the next position of `sequence` goes: must be `position`, the
  // sequence's current length. Fails when positions would skip or repeat, or
  // when no cell is free.
  struct Cell {
    int32_t block;
    int32_t offset;  // within the block
  };
  Result<Cell> append(SequenceId sequence, int64_t position);

  // The blocks of a sequence, in position order; valid until it next grows,
  // shrinks or is dropped.
  const std::vector<int32_t>& blocks(SequenceId sequence) const;

  // The key tile ([head_dim][block_size]) or value tile ([block_size][head_dim])
  // of one head in one block.
  uint16_t* keys(int64_t layer, int32_t block, int64_t head) {
    return keys_.data() + tile_offset(layer, block, head);
  }
  uint16_t* values(int64_t layer, int32_t block, int64_t head) {
    return values_.data() + tile_offset(layer, block, head);
  }
  const uint16_t* keys(int64_t layer, int32_t block, int64_t head) const {
    return keys_.data() + tile_offset(layer, block, head);
  }
  const uint16_t* values(int64_t layer, int32_t block, int64_t head) const {
    return values_.data() + tile_offset(layer, block, head);
  }

 private:
  struct Sequence {
    std::vector<int32_t> blocks;
    int64_t length = 0;
  };

  size_t tile_offset(int64_t layer, int32_t block, int64_t head) const {
    return layer_offsets_[size_t(layer)] +
           size_t((block * n_kv_heads_ + head) * block_size_ * head_dims_[size_t(layer)]);
  }

  std::vector<int64_t> head_dims_;     // per layer
  std::vector<size_t> layer_offsets_;  // where each layer's tiles start
  int64_t n_kv_heads_;
  int64_t block_size_;
  int64_t n_blocks_;
  std::vector<uint16_t> keys_;    // [layer][block][head][dim][cell]
  std::vector<uint16_t> values_;  // [layer][block][head][cell][dim]
  std::vector<int32_t> free_blocks_;
  std::unordered_map<SequenceId, Sequence> sequences_;
  RecurrentStates recurrent_;
};

}  // namespace ingot::model
