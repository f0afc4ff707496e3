#pragma once
// GBNF for the JSON Schema string formats ingot enforces. Each generates
// only strings that strict validators (ajv-formats' "full" mode) accept:
//
//   date       YYYY-MM-DD with the real number of days per month, 29
//              February only in leap years (RFC 3339 full-date)
//   time       HH:MM:SS, optional fraction of 1-9 digits, then Z or
//              +HH:MM / -HH:MM (RFC 3339 full-time; leap seconds not
//              generated)
//   date-time  date "T" time
//   uuid       8-4-4-4-12 hexadecimal digits, either case
//   email      dot-separated atoms of letters, digits and
//              !#$%&'*+/=?^_`{|}~- , "@", then two or more dot-separated
//              domain labels of letters, digits and inner hyphens
//
// The expressions describe the content between the quotes.

#include <optional>
#include <string_view>
#include <vector>

#include "sampling/grammar/json_primitives.h"

namespace ingot::sampling::grammar {

// The rules for `format` (the first one matches the whole content), or
// nullopt when the format is not supported.
std::optional<std::vector<GbnfRule>> string_format_rules(std::string_view format);

// The names of supported formats, for error messages and docs.
const std::vector<std::string_view>& supported_string_formats();

}  // namespace ingot::sampling::grammar
