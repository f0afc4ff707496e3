#pragma once
// A path's kernels by weight type: each kernel family's file lists the
// types it serves, and the path's table (matmul_<path>.cpp) looks a type
// up in its families' lists in turn. Adding a type to a path is one entry
// in its family's list.

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

}  // namespace ingot::kernels
