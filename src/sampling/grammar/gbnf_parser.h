#pragma once
// GBNF, the grammar format of llama.cpp, parsed into a compiled Grammar.
// Syntax (docs/grammar.md): rules `name ::= alternatives`; alternation
// `|`; grouping `( )`; repetition `* + ? {m} {m,} {m,n} {,n}`; string
// literals "..." and character classes [a-z] [^...] with the escapes
// \n \t \r \\ \" \xHH \uHHHH \UHHHHHHHH; `.` for any code point; comments
// from `#` to the end of the line; newlines are whitespace, a rule ends
// where the next `name ::=` starts. Errors read "line:col: reason".

#include <atomic>
#include <memory>
#include <string_view>

#include "sampling/grammar/grammar.h"
#include "util/status.h"

namespace ingot::sampling::grammar {

// Bounds that keep a hostile grammar from eating memory.
inline constexpr size_t kMaxGrammarElements = 1'000'000;
inline constexpr uint32_t kMaxRepetitionCount = 10'000;

// Stops with a kCancelled error, at the next rule, once `cancelled` is set
// (the client that asked for the grammar left).
Result<std::shared_ptr<const Grammar>> parse_gbnf(std::string_view text,
                                                  std::string_view root = "root",
                                                  const std::atomic<bool>* cancelled = nullptr);

}  // namespace ingot::sampling::grammar
