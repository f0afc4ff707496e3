#include "tokenizer/merge_table.h"

namespace ingot::tokenizer {
namespace {

uint64_t pair_key(int32_t left, int32_t right) {
  return (static_cast<uint64_t>(static_cast<uint32_t>(left)) << 32) | static_cast<uint32_t>(right);
}

}  // namespace

MergeTable::MergeTable(size_t expected_size) {
  size_t capacity = 16;
  shift_ = 60;
  // Load factor at most 0.7: half the memory of 0.35, so more of the table
  // stays in cache, for slightly longer probe runs.
  while (capacity * 7 < expected_size * 10) {
    capacity *= 2;
    --shift_;
  }
  slots_.assign(capacity, Slot{kEmpty, {0, 0}});
  mask_ = capacity - 1;
}

size_t MergeTable::slot_of(uint64_t key) const {
  // Fibonacci hashing spreads the structured (id, id) keys over the table.
  return static_cast<size_t>((key * 0x9E3779B97F4A7C15ull) >> shift_);
}

void MergeTable::insert(int32_t left, int32_t right, Merge merge) {
  uint64_t key = pair_key(left, right);
  for (size_t slot = slot_of(key);; slot = (slot + 1) & mask_) {
    if (slots_[slot].key == key) return;
    if (slots_[slot].key == kEmpty) {
      slots_[slot] = Slot{key, merge};
      return;
    }
  }
}

const MergeTable::Merge* MergeTable::find(int32_t left, int32_t right) const {
  uint64_t key = pair_key(left, right);
  for (size_t slot = slot_of(key);; slot = (slot + 1) & mask_) {
    if (slots_[slot].key == key) return &slots_[slot].merge;
    if (slots_[slot].key == kEmpty) return nullptr;
  }
}

}  // namespace ingot::tokenizer
