#pragma once
// Making arbitrary bytes well-formed UTF-8, the same way everywhere: each
// byte that does not begin a well-formed sequence (a stray continuation
// byte, a truncated or overlong sequence, a surrogate) becomes U+FFFD, and
// decoding resumes at the next byte.

#include <string>
#include <string_view>

namespace ingot::tokenizer {

std::string replace_invalid_utf8(std::string_view bytes);

}  // namespace ingot::tokenizer
