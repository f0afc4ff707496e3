#pragma once
// The fixed GBNF rules every JSON grammar is made of: whitespace, strings,
// numbers, literals and "any JSON value". Schema translation references
// them by name and adds each one (with the rules it needs) only when used.
//
// Whitespace is bounded: between two tokens at most one space, or one
// newline followed by up to 20 spaces or tabs. Pretty-printed JSON fits;
// a model (or a random one) cannot emit blanks forever.
//
// Numbers are bounded too: at most 15 integer digits (every such integer
// is exact in a double), 16 fraction digits and a two-digit exponent. A
// string's `\u` escapes are limited to the Basic Multilingual Plane
// without surrogates, so every string parses with strict JSON parsers;
// other characters are written as UTF-8.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ingot::sampling::grammar {

inline constexpr int kMaxIntegerDigits = 15;

namespace json_rule {
inline constexpr std::string_view kWs = "ws";
inline constexpr std::string_view kChar = "json-char";
inline constexpr std::string_view kString = "json-string";
inline constexpr std::string_view kInteger = "json-integer";
inline constexpr std::string_view kNumber = "json-number";
inline constexpr std::string_view kFraction = "json-fraction";
inline constexpr std::string_view kBoolean = "json-boolean";
inline constexpr std::string_view kNull = "json-null";
inline constexpr std::string_view kValue = "json-value";
inline constexpr std::string_view kObject = "json-object";
inline constexpr std::string_view kArray = "json-array";
}  // namespace json_rule

struct GbnfRule {
  std::string name;
  std::string body;
};

// `name` and every primitive it references, transitively; empty when
// `name` is not a primitive.
std::vector<GbnfRule> json_primitive_rules(std::string_view name);

// Every primitive rule's name (they are reserved in generated grammars).
const std::vector<std::string_view>& json_primitive_names();

}  // namespace ingot::sampling::grammar
