#pragma once
// A path's kernels by weight type and its packers by packed type. Each
// kernel family's file lists the weight types it serves, and the path
// (matmul_<path>.cpp) looks a type up in its families' lists in turn:
// adding a type to a path is one entry in its family's list.

#include <initializer_list>
#include <span>

#include "kernels/dispatch.h"

namespace ingot::kernels {

struct TileEntry {
  ElementType type;
  TileKernel kernel;
};

using TileList = std::span<const TileEntry>;

// The first kernel for `type` in `lists`, or nullptr.
inline TileKernel find_tile(std::initializer_list<TileList> lists, ElementType type) {
  for (TileList list : lists) {
    for (const TileEntry& entry : list) {
      if (entry.type == type) return entry.kernel;
    }
  }
  return nullptr;
}

// A path's activation packers, nullptr where it has none.
struct Packers {
  PackRowFn q8_0 = nullptr;
  PackRowFn q8_1 = nullptr;
  PackRowFn q8_k = nullptr;
  PackRowFn f16 = nullptr;

  PackRowFn for_type(ElementType packed_type) const {
    switch (packed_type) {
      case ElementType::kQ8_0:
        return q8_0;
      case ElementType::kQ8_1:
        return q8_1;
      case ElementType::kQ8_K:
        return q8_k;
      case ElementType::kF16:
        return f16;
      default:
        return nullptr;
    }
  }
};

}  // namespace ingot::kernels
