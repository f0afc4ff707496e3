#include "util/utf8.h"

namespace ingot::utf8 {
namespace {

constexpr char32_t kReplacement = 0xFFFD;

bool is_continuation(uint8_t byte) {
  return (byte & 0xC0) == 0x80;
}

// Checks the second byte against the ranges that rule out overlongs,
// surrogates and code points past U+10FFFF (Unicode Table 3-7).
bool second_byte_ok(uint8_t first, uint8_t second) {
  switch (first) {
    case 0xE0:
      return second >= 0xA0 && second <= 0xBF;
    case 0xED:
      return second >= 0x80 && second <= 0x9F;
    case 0xF0:
      return second >= 0x90 && second <= 0xBF;
    case 0xF4:
      return second >= 0x80 && second <= 0x8F;
    default:
      return is_continuation(second);
  }
}

}  // namespace

int sequence_length(uint8_t first_byte) {
  if (first_byte < 0x80) return 1;
  if (first_byte >= 0xC2 && first_byte <= 0xDF) return 2;
  if (first_byte >= 0xE0 && first_byte <= 0xEF) return 3;
  if (first_byte >= 0xF0 && first_byte <= 0xF4) return 4;
  return 0;
}

bool is_valid(std::string_view text) {
  size_t i = 0;
  while (i < text.size()) {
    auto first = static_cast<uint8_t>(text[i]);
    int length = sequence_length(first);
    if (length == 0 || i + length > text.size()) return false;
    if (length > 1 && !second_byte_ok(first, static_cast<uint8_t>(text[i + 1]))) return false;
    for (int k = 2; k < length; ++k) {
      if (!is_continuation(static_cast<uint8_t>(text[i + k]))) return false;
    }
    i += length;
  }
  return true;
}

size_t complete_prefix_length(std::string_view text) {
  // Look back at most 3 bytes for the start of a trailing sequence.
  size_t n = text.size();
  for (size_t back = 1; back <= 4 && back <= n; ++back) {
    auto byte = static_cast<uint8_t>(text[n - back]);
    if (is_continuation(byte)) continue;
    int length = sequence_length(byte);
    if (length == 0 || static_cast<size_t>(length) <= back) return n;
    // A truncated sequence: hold it back only while it could still complete.
    if (back >= 2 && !second_byte_ok(byte, static_cast<uint8_t>(text[n - back + 1]))) return n;
    return n - back;
  }
  return n;
}

char32_t decode(std::string_view text, size_t& pos) {
  auto first = static_cast<uint8_t>(text[pos]);
  int length = sequence_length(first);
  if (length == 1) {
    ++pos;
    return first;
  }
  if (length == 0 || pos + length > text.size() ||
      !second_byte_ok(first, static_cast<uint8_t>(text[pos + 1]))) {
    ++pos;
    return kReplacement;
  }
  char32_t cp = first & (0xFF >> (length + 1));
  for (int k = 1; k < length; ++k) {
    auto byte = static_cast<uint8_t>(text[pos + k]);
    if (!is_continuation(byte)) {
      ++pos;
      return kReplacement;
    }
    cp = (cp << 6) | (byte & 0x3F);
  }
  pos += length;
  return cp;
}

void append(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

}  // namespace ingot::utf8
