#pragma once
// The few UTF-8 facts the grammar code needs: decoding a code point from
// text, and describing a character that a token's bytes leave unfinished.

#include <cstdint>
#include <string_view>

namespace ingot::sampling::grammar {

// The number of bytes a character starting with `lead` has; 0 when `lead`
// cannot start one (a continuation byte, or 0xF8 and above).
inline int utf8_length(uint8_t lead) {
  if (lead < 0x80) return 1;
  if (lead < 0xC2) return 0;  // continuation bytes and overlong 2-byte leads
  if (lead < 0xE0) return 2;
  if (lead < 0xF0) return 3;
  if (lead < 0xF5) return 4;
  return 0;
}

// A character whose first bytes have arrived and whose rest has not.
struct PartialUtf8 {
  char32_t value = 0;   // bits seen so far
  uint8_t missing = 0;  // continuation bytes still to come; 0: none pending
  uint8_t length = 0;   // the character's full length in bytes

  friend bool operator==(const PartialUtf8&, const PartialUtf8&) = default;
};

// Smallest and largest code point a valid completion of `partial` can be.
// Returns false when no completion is a valid code point.
inline bool partial_range(const PartialUtf8& partial, char32_t& first, char32_t& last) {
  int shift = 6 * partial.missing;
  first = partial.value << shift;
  last = first | ((char32_t{1} << shift) - 1);
  static constexpr char32_t kMinByLength[5] = {0, 0, 0x80, 0x800, 0x10000};
  if (first < kMinByLength[partial.length]) first = kMinByLength[partial.length];
  if (last > 0x10FFFF) last = 0x10FFFF;
  // ED A0..BF only ever completes to a surrogate: no valid character.
  if (first >= 0xD800 && last <= 0xDFFF) return false;
  return first <= last;
}

// Whether a finished character is a valid code point (no overlong forms
// or surrogates).
inline bool valid_code_point(char32_t c, int length) {
  static constexpr char32_t kMinByLength[5] = {0, 0, 0x80, 0x800, 0x10000};
  if (c < kMinByLength[length] || c > 0x10FFFF) return false;
  return c < 0xD800 || c > 0xDFFF;
}

// Decodes the character at text[pos], advancing pos. Returns false on
// invalid or truncated UTF-8 (pos is then unchanged).
inline bool decode_utf8(std::string_view text, size_t& pos, char32_t& out) {
  auto lead = static_cast<uint8_t>(text[pos]);
  int length = utf8_length(lead);
  if (length == 0 || pos + static_cast<size_t>(length) > text.size()) return false;
  if (length == 1) {
    out = lead;
    ++pos;
    return true;
  }
  char32_t c = lead & (0x7F >> length);
  for (int i = 1; i < length; ++i) {
    auto b = static_cast<uint8_t>(text[pos + static_cast<size_t>(i)]);
    if ((b & 0xC0) != 0x80) return false;
    c = (c << 6) | (b & 0x3F);
  }
  if (!valid_code_point(c, length)) return false;
  out = c;
  pos += static_cast<size_t>(length);
  return true;
}

}  // namespace ingot::sampling::grammar
