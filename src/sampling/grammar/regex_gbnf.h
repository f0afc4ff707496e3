#pragma once
// Translates a JSON Schema `pattern` (an ECMA-262 regular expression) into
// a GBNF expression over the *encoded* string content, i.e. what appears
// between the quotes: a `"` the regex matches is emitted as `\"`, a
// backslash as `\\`.
//
// Supported subset: literal characters and escaped punctuation; `.`
// (any character but line terminators); classes `[abc]`, `[a-z]`,
// `[^...]`; the escapes \d \w \s \D \W \S \t \n \r \f \v \0 \xHH \uHHHH;
// quantifiers * + ? {m} {m,} {m,n} (lazy forms accepted: they match the
// same strings); groups `( )`, `(?: )`, `(?<name> )`; alternation `|`;
// anchors `^` at the start and `$` at the end of a top-level
// alternative. Patterns are searches, as JSON Schema says: an alternative
// without `^` may be preceded, one without `$` followed, by any
// characters. Control characters (U+0000-U+001F) are never generated.
//
// Anything else (backreferences, lookaround, \b, \p{...}, anchors inside
// groups, counts above 1000) is an error naming the construct.

#include <string>
#include <string_view>

#include "util/status.h"

namespace ingot::sampling::grammar {

inline constexpr int kMaxPatternRepeat = 1000;

// `any_char_rule`: the name of a rule matching one encoded JSON string
// character (used for the unanchored ends).
Result<std::string> regex_to_gbnf(std::string_view pattern, std::string_view any_char_rule);

}  // namespace ingot::sampling::grammar
