#pragma once
// The part of a `$ref` the translator follows: a reference inside its own
// document, `#` then a JSON pointer, percent-escaped as a URI fragment.

#include <optional>
#include <string>
#include <string_view>

namespace ingot::sampling::grammar {

// The percent-decoded fragment of a reference that starts with '#' (the
// JSON pointer, or an anchor name); nullopt for a reference to another
// document.
std::optional<std::string> ref_fragment(std::string_view ref);

// Whether a fragment is a JSON pointer ("" or "/..."), not an anchor.
inline bool is_json_pointer(std::string_view fragment) {
  return fragment.empty() || fragment[0] == '/';
}

}  // namespace ingot::sampling::grammar
