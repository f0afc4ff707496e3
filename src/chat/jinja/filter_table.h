#pragma once
// The filters each source file registers, by name; `find_filter` reads them
// all.

#include <span>
#include <string_view>

#include "chat/jinja/filters.h"

namespace ingot::chat::jinja {

struct FilterEntry {
  std::string_view name;
  FilterFn fn;
};

// dictsort, join, map, select, sort, sum, unique and the rest that walk a
// sequence or mapping.
std::span<const FilterEntry> sequence_filters();

}  // namespace ingot::chat::jinja
