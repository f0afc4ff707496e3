#pragma once
// GPT-2's byte-level alphabet: every byte has a printable stand-in code
// point, so a byte-level BPE vocabulary stores arbitrary bytes as text.
// Printable Latin-1 bytes stand for themselves; the other 68 bytes map to
// U+0100 upwards in byte order (space becomes 'Ġ', newline 'Ċ').

#include <cstdint>
#include <string>
#include <string_view>

namespace ingot::tokenizer::byte_level {

// The UTF-8 text of the stand-in for `byte` (1 or 2 bytes long).
std::string_view encode_byte(uint8_t byte);

// Appends the stand-ins for every byte of `bytes` to `out`.
void encode(std::string_view bytes, std::string& out);

// The bytes a byte-level text stands for. A code point outside the
// alphabet is kept as its own UTF-8 (it was never byte-encoded).
std::string decode(std::string_view text);

}  // namespace ingot::tokenizer::byte_level
