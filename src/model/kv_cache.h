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
// With prefix sharing on (share_prefixes), a block is held by every
// sequence whose positions it stores, and each full block is indexed by the
// hash of all the tokens up to its end (chained block to block), so that a
// new sequence starts from the longest cached prefix of its tokens, whoever
// computed it (attach_cached_prefix). Shared blocks are read-only: a
// sequence writes only blocks it alone holds and no index names; cutting a
// sequence inside a shared block gives it its own copy. A block no
// sequence holds stays cached, indexed, until a new block is needed and
// none is free: then the least recently released goes.
//
// Sliding-window layers (Gemma, gpt-oss) may keep only their window
// (WindowPlan): their tiles then live in a smaller pool of slots, one slot
// per block that some sequence's window still covers (the last `window`
// positions and a block more, so that a short rollback finds its keys).
// A block its sequences have moved past keeps its slot as a spare until
// another block needs one, least recently spared first: a prefix, or a
// sequence cut back, resumes only where its window's blocks still have
// theirs (attach_cached_prefix, resumable_length). The full-attention
// layers keep every position as before.
//
// A hybrid model's cache also holds each sequence's recurrent state
// (RecurrentStates); its keys and values are those of the attention layers
// alone. The two move together: a sequence is kept to a shorter length
// only where its recurrent state allows it (resumable_length).

#include <cstddef>
#include <cstdint>
#include <list>
#include <span>
#include <unordered_map>
#include <vector>

#include "kernels/element_type.h"
#include "model/recurrent_state.h"
#include "util/page_arena.h"
#include "util/status.h"

namespace ingot::model {

// The element types keys and values are stored in (--cache-type-k,
// --cache-type-v; kernels/kv_tiles.h): F16, Q8_0 or Q4_0. Quantized types
// need head sizes and a block size that are multiples of 32.
struct KvCacheTypes {
  kernels::ElementType keys = kernels::ElementType::kF16;
  kernels::ElementType values = kernels::ElementType::kF16;
};

// The windowed layers' own pool: `window` positions each query sees (its
// own included), `cells` cells for every sequence's window and the
// positions one step adds. window 0: they keep every position.
struct KvWindowPlan {
  int64_t window = 0;
  int64_t cells = 0;
};

class KvCache {
 public:
  static constexpr int64_t kDefaultBlockSize = 32;

  // Room for `n_cells` positions in all (rounded up to whole blocks).
  KvCache(int64_t n_layers, int64_t n_kv_heads, int64_t head_dim, int64_t n_cells,
          int64_t block_size = kDefaultBlockSize);
  // Layers whose heads differ in number or size (Gemma 4's sliding and
  // global layers); `windowed` for a sliding-window layer.
  struct LayerShape {
    int64_t kv_heads;
    int64_t head_dim;
    bool windowed = false;
  };
  using Types = KvCacheTypes;
  using WindowPlan = KvWindowPlan;
  // `cache_cells` more may hold finished sequences' blocks for later
  // requests (the prompt cache, --cache-ram): blocks beyond the first
  // `n_cells` are made only when every block is held or cached, and their
  // memory is taken from the system only when they are first written.
  KvCache(std::vector<LayerShape> layers, int64_t n_cells, int64_t block_size = kDefaultBlockSize,
          int64_t cache_cells = 0, Types types = {}, WindowPlan window = {});

  int64_t block_size() const { return block_size_; }
  Types types() const { return types_; }
  // Bytes one position takes in every layer, keys and values.
  static int64_t bytes_per_position(const std::vector<LayerShape>& layers, Types types);
  // Bytes of the whole cache: every layer's `n_cells`, the windowed ones'
  // `window.cells` where the plan trims them.
  static int64_t bytes_for(const std::vector<LayerShape>& layers, int64_t n_cells, Types types,
                           WindowPlan window = {});
  // Whether the windowed layers keep only their window.
  bool trims_windows() const { return window_ > 0; }
  // After a step: the blocks now behind `sequence`'s window give their
  // slots up as spares.
  void slide_window(SequenceId sequence);
  // Every cell the cache may come to hold.
  int64_t capacity() const { return max_blocks_ * block_size_; }
  // Cells no sequence holds (cached ones included: they can be taken).
  int64_t free_cells() const {
    return int64_t(free_blocks_.size() + unheld_.size()) * block_size_ +
           (max_blocks_ - n_blocks_) * block_size_;
  }

  // Turns prefix sharing on (attention-only models: a recurrent state
  // cannot be shared by block).
  void share_prefixes() { sharing_ = true; }
  bool shares_prefixes() const { return sharing_; }
  // How many leading positions of `tokens` (at most `limit`) the index
  // holds, in whole blocks.
  // Prefixes are shared only between sequences hashed from the same seed:
  // the plain one, or one per set of LoRA adapters (prefix_seed), whose
  // keys and values differ from the base model's.
  static constexpr uint64_t kPlainPrefixSeed = 0x9E3779B97F4A7C15ull;
  static uint64_t prefix_seed(std::span<const uint64_t> salt);
  int64_t cached_prefix_length(std::span<const int32_t> tokens, int64_t limit,
                               uint64_t seed = kPlainPrefixSeed) const;
  // Extends `sequence`, whose positions hold the first tokens of `tokens`
  // and end at a block boundary, with the cached blocks holding the next
  // ones, up to `limit` positions in all; returns its length.
  int64_t attach_cached_prefix(SequenceId sequence, std::span<const int32_t> tokens, int64_t limit,
                               uint64_t seed = kPlainPrefixSeed);
  // Indexes the full blocks of `sequence` not indexed yet; `tokens` are the
  // tokens at its positions.
  void publish(SequenceId sequence, std::span<const int32_t> tokens,
               uint64_t seed = kPlainPrefixSeed);

  // The prompt cache on disk (engine/prompt_disk_store) saves indexed
  // blocks and restores them under the same prefix hashes, chained from
  // kPlainPrefixSeed.
  static uint64_t next_prefix_hash(uint64_t previous, std::span<const int32_t> block_tokens);
  // The bytes of one block's keys and values, all layers.
  int64_t block_bytes() const;
  // The prefix hash at the end of each full block of `sequence` that
  // publish() has seen.
  std::span<const uint64_t> prefix_hashes(SequenceId sequence) const;
  // Copies the keys and values of block `index` of `sequence` (one of its
  // published blocks) into `out`, block_bytes() long.
  void save_block(SequenceId sequence, size_t index, std::span<std::byte> out) const;
  // Whether the index holds the block whose prefix hashes to `hash`.
  bool indexes(uint64_t hash) const { return index_.contains(hash); }
  // Makes a cached block (indexed under `hash`, held by none) of `payload`,
  // laid out as save_block writes it; false when every block is held.
  bool restore_block(uint64_t hash, std::span<const int32_t> block_tokens,
                     std::span<const std::byte> payload);

  struct SharingStats {
    int64_t indexed_blocks = 0;  // full blocks a new sequence may start from
    int64_t unheld_blocks = 0;   // of those, the ones no sequence holds
    int64_t evictions = 0;       // indexed blocks taken for new positions
  };
  SharingStats sharing_stats() const;

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
  // of one head in one block, as kernels/kv_tiles.h lays it out for the
  // cache's types.
  std::byte* key_tile(int64_t layer, int32_t block, int64_t head) {
    return keys_ + key_offset(layer, block, head);
  }
  std::byte* value_tile(int64_t layer, int32_t block, int64_t head) {
    return values_ + value_offset(layer, block, head);
  }
  const std::byte* key_tile(int64_t layer, int32_t block, int64_t head) const {
    return keys_ + key_offset(layer, block, head);
  }
  const std::byte* value_tile(int64_t layer, int32_t block, int64_t head) const {
    return values_ + value_offset(layer, block, head);
  }
  // The same tiles as halves, for a cache whose keys (values) are F16.
  uint16_t* keys(int64_t layer, int32_t block, int64_t head) {
    return reinterpret_cast<uint16_t*>(key_tile(layer, block, head));
  }
  uint16_t* values(int64_t layer, int32_t block, int64_t head) {
    return reinterpret_cast<uint16_t*>(value_tile(layer, block, head));
  }
  const uint16_t* keys(int64_t layer, int32_t block, int64_t head) const {
    return reinterpret_cast<const uint16_t*>(key_tile(layer, block, head));
  }
  const uint16_t* values(int64_t layer, int32_t block, int64_t head) const {
    return reinterpret_cast<const uint16_t*>(value_tile(layer, block, head));
  }

 private:
  struct Sequence {
    std::vector<int32_t> blocks;
    int64_t length = 0;
    // Its blocks from this one on count it in window_users_.
    size_t window_start = 0;
    // The prefix hash at the end of each of its first full blocks (those
    // publish() has seen, indexed or not).
    std::vector<uint64_t> hashes;
  };

  // A free block, else a new one while the prompt cache has room, else the
  // least recently released cached one (its index entry goes); -1 when
  // every block is held.
  int32_t take_block();
  int32_t add_block();
  // One sequence fewer holds `block`.
  void release(int32_t block);
  void hold(int32_t block);
  // The block `index` of `s`, made one that `s` alone holds and no index
  // names, so that it can be written; false when no block is free.
  bool make_writable(Sequence& s, size_t index);
  void copy_block(int32_t from, int32_t to);
  // Where each head's tile starts: a layer's blocks follow each other, and
  // a block's heads lie side by side.
  // A windowed layer's tiles are its slot's.
  size_t key_offset(int64_t layer, int32_t block, int64_t head) const {
    const Layer& l = layer_[size_t(layer)];
    return l.key_offset + size_t(tile_index(l, block) * l.kv_heads + head) * l.key_tile;
  }
  size_t value_offset(int64_t layer, int32_t block, int64_t head) const {
    const Layer& l = layer_[size_t(layer)];
    return l.value_offset + size_t(tile_index(l, block) * l.kv_heads + head) * l.value_tile;
  }
  struct Layer;
  int64_t tile_index(const Layer& l, int32_t block) const {
    return l.in_slots ? slot_[size_t(block)] : block;
  }

  // The windowed layers' slots (trims_windows() only).
  int64_t window_first_block(int64_t length) const;
  bool window_has_slots(const std::vector<int32_t>& blocks, int64_t length) const;
  bool give_slot(int32_t block);
  int32_t take_slot();
  void enter_window(int32_t block);
  void leave_window(int32_t block);
  void free_slot(int32_t block);
  void pop_block(Sequence& s);
  void unindex(int32_t block);
  // The indexed block holding `tokens` after the prefix hashed as `chain`.
  int32_t find_block(uint64_t chain, std::span<const int32_t> tokens) const;

  // Each layer's tile sizes and where its tiles start, in bytes.
  struct Layer {
    int64_t kv_heads;
    size_t key_tile, value_tile;
    size_t key_offset, value_offset;
    bool in_slots = false;  // a windowed layer whose window is trimmed
  };

  std::vector<LayerShape> layers_;
  std::vector<Layer> layer_;
  int64_t block_size_;
  int64_t initial_blocks_;  // made at start (the slots' cells)
  int64_t max_blocks_;      // with the prompt cache's
  int64_t n_blocks_;        // made so far: the per-block vectors' size
  PageArena storage_;       // address space for max_blocks_, committed as written
  Types types_;
  std::byte* keys_ = nullptr;    // [layer][block][head] key tiles
  std::byte* values_ = nullptr;  // [layer][block][head] value tiles
  std::vector<int32_t> free_blocks_;
  std::unordered_map<SequenceId, Sequence> sequences_;
  bool sharing_ = false;
  std::vector<int32_t> holders_;                    // per block
  std::vector<uint64_t> block_hash_;                // per block; 0: not indexed
  std::vector<std::vector<int32_t>> block_tokens_;  // per indexed block
  std::unordered_map<uint64_t, int32_t> index_;
  std::list<int32_t> unheld_;  // indexed, held by none; least recently released first
  std::vector<std::list<int32_t>::iterator> unheld_at_;  // per block in unheld_
  int64_t evictions_ = 0;
  // Windowed layers: each block's slot (-1: none), each slot's block (-1:
  // free), how many sequences' windows cover each block, and the slots no
  // window covers, least recently spared first.
  int64_t window_ = 0;
  int64_t max_slots_ = 0;
  std::vector<int32_t> slot_;
  std::vector<int32_t> slot_block_;
  std::vector<int32_t> window_users_;
  std::vector<int32_t> free_slots_;
  std::list<int32_t> spare_;
  std::vector<std::list<int32_t>::iterator> spare_at_;  // per slot
  RecurrentStates recurrent_;
};

}  // namespace ingot::model
