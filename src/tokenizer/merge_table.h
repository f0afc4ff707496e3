#pragma once
// The BPE merge table: (left symbol id, right symbol id) -> (rank, joined
// symbol id). Open addressing over one flat array, because looking pairs up
// is the hot loop of byte-level BPE and a node-based map spends its time in
// cache misses.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ingot::tokenizer {

class MergeTable {
 public:
  struct Merge {
    int32_t rank;
    int32_t result;
  };

  explicit MergeTable(size_t expected_size = 0);

  // Keeps the first merge inserted for a pair (the lowest rank).
  void insert(int32_t left, int32_t right, Merge merge);
  // Null when the pair never merges.
  const Merge* find(int32_t left, int32_t right) const;

 private:
  struct Slot {
    uint64_t key;  // kEmpty when unused
    Merge merge;
  };
  static constexpr uint64_t kEmpty = ~uint64_t{0};

  size_t slot_of(uint64_t key) const;

  std::vector<Slot> slots_;
  uint64_t mask_;
  int shift_;  // 64 - log2(capacity): the hash bits used
};

}  // namespace ingot::tokenizer
