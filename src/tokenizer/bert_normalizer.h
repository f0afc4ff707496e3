#pragma once
// BERT's basic tokenization before WordPiece, as llama.cpp applies it: each
// code point is reduced to the first code point of its canonical
// decomposition (so accents on precomposed letters drop), lowercased;
// control characters vanish; white space separates words; punctuation,
// ASCII symbols and CJK ideographs become words of their own.

#include <string>
#include <string_view>
#include <vector>

namespace ingot::tokenizer {

std::vector<std::string> bert_words(std::string_view text);

// Unicode's White_Space property (the 25 code points), which `\s` in
// llama.cpp's pre-tokenizers means as well.
bool is_unicode_whitespace(char32_t code_point);

}  // namespace ingot::tokenizer
