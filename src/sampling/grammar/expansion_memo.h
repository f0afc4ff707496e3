#pragma once
// The states one expansion has already replaced, so that a state reached
// again along another path is not expanded twice. Nested optional or
// repeated parts that can all match nothing ("((x?)?)? ((x?)?)?") reach
// the same state along a number of paths that grows exponentially with
// their count; each path ends in the same stacks, so one is enough.
//
// Keys are 64-bit values the caller derives from the state; clear() is
// constant time (a generation stamp), because the token masker starts one
// expansion per trie node it visits.

#include <cstdint>
#include <vector>

namespace ingot::sampling::grammar {

class ExpansionMemo {
 public:
  ExpansionMemo() { slots_.resize(kInitialSlots); }

  void clear() {
    if (++generation_ == 0) {  // the stamp wrapped: forget every slot for real
      for (Slot& slot : slots_) slot.generation = 0;
      generation_ = 1;
    }
    size_ = 0;
  }

  // True when `key` was not yet in the set (and is now).
  bool insert(uint64_t key) {
    if (2 * (size_ + 1) > slots_.size()) grow();
    return place(key);
  }

 private:
  struct Slot {
    uint64_t key = 0;
    uint32_t generation = 0;
  };
  static constexpr size_t kInitialSlots = 64;

  static uint64_t mix(uint64_t key) {
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdull;
    key ^= key >> 33;
    return key;
  }

  bool place(uint64_t key) {
    size_t mask = slots_.size() - 1;
    for (size_t i = mix(key) & mask;; i = (i + 1) & mask) {
      Slot& slot = slots_[i];
      if (slot.generation != generation_) {
        slot = {key, generation_};
        ++size_;
        return true;
      }
      if (slot.key == key) return false;
    }
  }

  void grow() {
    std::vector<Slot> old(slots_.size() * 2);
    old.swap(slots_);
    uint32_t live = generation_;
    clear();
    for (const Slot& slot : old) {
      if (slot.generation == live) place(slot.key);
    }
  }

  std::vector<Slot> slots_;
  uint32_t generation_ = 1;
  size_t size_ = 0;
};

}  // namespace ingot::sampling::grammar
