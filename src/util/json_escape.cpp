#include "util/json_escape.h"

#include "util/utf8.h"

namespace ingot {
namespace {

// The escape of a character JSON cannot hold as it is; empty for the rest.
std::string_view named_escape(char32_t c) {
  switch (c) {
    case '"':
      return "\\\"";
    case '\\':
      return "\\\\";
    case '\n':
      return "\\n";
    case '\r':
      return "\\r";
    case '\t':
      return "\\t";
    case '\b':
      return "\\b";
    case '\f':
      return "\\f";
    default:
      return {};
  }
}

void append_u_escape(std::string& out, unsigned code_unit) {
  constexpr char kHex[] = "0123456789abcdef";
  out += "\\u";
  for (int shift = 12; shift >= 0; shift -= 4) out += kHex[(code_unit >> shift) & 0xf];
}

void append_escaped(std::string& out, char32_t c, bool ensure_ascii) {
  if (std::string_view named = named_escape(c); !named.empty()) {
    out += named;
  } else if (c < 0x20 || (ensure_ascii && c >= 0x7F && c <= 0xFFFF)) {
    append_u_escape(out, static_cast<unsigned>(c));
  } else if (ensure_ascii && c > 0xFFFF) {
    const char32_t v = c - 0x10000;
    append_u_escape(out, static_cast<unsigned>(0xD800 + (v >> 10)));
    append_u_escape(out, static_cast<unsigned>(0xDC00 + (v & 0x3FF)));
  } else if (c < 0x80) {
    out += static_cast<char>(c);
  } else {
    utf8::append(out, c);
  }
}

}  // namespace

void append_json_escaped(std::string& out, std::string_view text, bool ensure_ascii) {
  if (!ensure_ascii) {
    for (char byte : text) {
      const auto unit = static_cast<unsigned char>(byte);
      if (unit < 0x80) {
        append_escaped(out, unit, false);
      } else {
        out += byte;
      }
    }
    return;
  }
  size_t pos = 0;
  while (pos < text.size()) append_escaped(out, utf8::decode(text, pos), true);
}

}  // namespace ingot
