#pragma once
// Spelling GBNF source text: quoted literals, character classes and rule
// names. Generators (the JSON Schema translator, tool-call wrappers) build
// grammars as text and leave parsing to parse_gbnf, so every piece of text
// they emit goes through these helpers and nothing is escaped by hand.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ingot::sampling::grammar {

// Inclusive code-point ranges; any order, overlaps allowed.
using CodePointRanges = std::vector<std::pair<char32_t, char32_t>>;

// `text` (UTF-8) as a GBNF literal, quotes included: "\"a\\n\"".
std::string gbnf_literal(std::string_view text);

// A GBNF character class matching the code points in `ranges` but the
// surrogates ("[a-z0-9]"). Empty ranges give an empty string: the caller
// must not emit an empty class.
std::string gbnf_class(CodePointRanges ranges);

// Sorted, merged ranges; and the complement within [0, 0x10FFFF].
CodePointRanges normalize_ranges(CodePointRanges ranges);
CodePointRanges complement_ranges(const CodePointRanges& ranges);
// `ranges` minus `removed`.
CodePointRanges subtract_ranges(const CodePointRanges& ranges, const CodePointRanges& removed);
bool ranges_contain(const CodePointRanges& ranges, char32_t c);

// `hint` made into a valid rule name ([a-zA-Z0-9-]+, never empty).
std::string gbnf_rule_name(std::string_view hint);

// Decodes UTF-8 into code points; nullopt on malformed input.
std::optional<std::u32string> decode_utf8(std::string_view text);
void append_utf8(std::string& out, char32_t c);

// Appends `piece` to `out`, after `separator` unless `out` is empty.
void append_separated(std::string& out, std::string_view separator, std::string_view piece);

// The alternatives joined by " | " (no parentheses around them).
std::string join_alternatives(const std::vector<std::string>& alternatives);

// `element` repeated between `min` and `max` times (`max` nullopt: no
// bound) in the shortest GBNF spelling: "", x, x?, x*, x+, x{3}, x{2,5}.
// `element` must already be one GBNF element (a name, literal, class or
// parenthesized group).
std::string gbnf_repeat(const std::string& element, uint64_t min, std::optional<uint64_t> max);

// Adds the rules of any text (valid UTF-8) that does not contain `close`
// (non-empty, valid UTF-8): `name`, and `name`-1, -2, ... for the states
// between; returns `name`. Exact, so that text the grammar allows before a
// close never holds that close (a parser reading up to it agrees).
using AddRule = std::function<void(std::string name, std::string body)>;
std::string gbnf_text_without(std::string_view close, const std::string& name,
                              const AddRule& add_rule);

}  // namespace ingot::sampling::grammar
