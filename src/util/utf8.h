#pragma once
// UTF-8 facts shared by the tokenizer, the streaming detokenizer, the
// template engine and the JSON layer.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace ingot::utf8 {

// The length a sequence announces by its first byte: 1-4, or 0 for a
// continuation byte or a byte that can never start a sequence.
int sequence_length(uint8_t first_byte);

// True when `text` is well-formed UTF-8 (no overlongs, surrogates, or code
// points past U+10FFFF).
bool is_valid(std::string_view text);

// The length of the longest prefix of `text` that does not end inside an
// incomplete (but so far valid) sequence: what a stream may emit now.
size_t complete_prefix_length(std::string_view text);

// Decodes one code point at `text[pos]`, advancing pos; invalid input yields
// U+FFFD and advances one byte.
char32_t decode(std::string_view text, size_t& pos);

// Appends the UTF-8 encoding of a code point.
void append(std::string& out, char32_t code_point);

}  // namespace ingot::utf8
