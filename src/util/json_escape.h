#pragma once
// The body of a JSON string literal (no quotes): ", \ and control
// characters escaped as json.dumps and nlohmann write them (\n, \r, \t,
// \b, \f by name, the rest \u00XX). With `ensure_ascii`, everything past
// ASCII as \uXXXX (a surrogate pair past the BMP), as Python's json.dumps
// does by default. Without it, bytes past ASCII pass through unread, so a
// piece of a longer text (even one cut inside a character) can be escaped
// on its own.

#include <string>
#include <string_view>

namespace ingot {

void append_json_escaped(std::string& out, std::string_view text, bool ensure_ascii = false);

inline std::string json_escaped(std::string_view text) {
  std::string out;
  append_json_escaped(out, text);
  return out;
}

}  // namespace ingot
