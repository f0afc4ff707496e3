#pragma once
// Python's str semantics over UTF-8 text: a Python string is a sequence of
// code points, so lengths, indexes and slices count code points, and
// whitespace, case mapping and line splitting follow str's rules.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ingot::chat::jinja::py {

// str.isspace() for one code point.
bool is_space(char32_t c);

std::u32string decode(std::string_view text);
std::string encode(std::u32string_view text);
size_t length(std::string_view text);

// str.strip / lstrip / rstrip; `chars` absent means whitespace.
std::string strip(std::string_view text, const std::optional<std::string>& chars, bool left,
                  bool right);
// str.split(sep, maxsplit); sep absent splits on runs of whitespace.
std::vector<std::string> split(std::string_view text, const std::optional<std::string>& sep,
                               int64_t maxsplit);
// str.rsplit(sep, maxsplit).
std::vector<std::string> rsplit(std::string_view text, const std::optional<std::string>& sep,
                                int64_t maxsplit);
// str.splitlines(): \n, \r, \r\n, \v, \f, \x1c-\x1e, U+0085, U+2028, U+2029.
std::vector<std::string> splitlines(std::string_view text);
std::string replace(std::string_view text, std::string_view old_text, std::string_view new_text,
                    int64_t count);
// str.find in code points; -1 when absent.
int64_t find(std::string_view text, std::string_view sub);
int64_t count(std::string_view text, std::string_view sub);

std::string lower(std::string_view text);
std::string upper(std::string_view text);
// str.title(): a cased letter after an uncased character starts a word.
std::string title(std::string_view text);
// str.capitalize(): first character upper case, the rest lower case.
std::string capitalize(std::string_view text);

// The indexes a Python slice [start:stop:step] selects from a sequence of
// `size` elements. step must not be 0.
std::vector<int64_t> slice_indices(int64_t size, std::optional<int64_t> start,
                                   std::optional<int64_t> stop, int64_t step);

}  // namespace ingot::chat::jinja::py
