#pragma once
// GBNF for numbers between bounds, built from digit-range rules: an
// integer in [lo, hi] is written as alternatives per digit count, and a
// range of equal-length digit strings splits at the first digit where the
// bounds differ ("123".."456" = 12[3-9] | 1[3-9][0-9] | [23][0-9][0-9] |
// 4[0-4][0-9] | 45[0-6]). The grammar accepts exactly the integers in the
// range, without leading zeros or "-0".
//
// Numbers (non-integers) are supported for integer-valued bounds: the
// integer part is constrained by the same rules and the fraction by
// whether the bound is inclusive (5 <= x allows 5.0..., 5 < x needs a
// non-zero fraction after 5). Bounded numbers are written without an
// exponent. Magnitudes stay within kMaxIntegerDigits digits.

#include <cstdint>
#include <optional>
#include <string>

#include "util/status.h"

namespace ingot::sampling::grammar {

struct NumericBound {
  int64_t value = 0;
  bool exclusive = false;
};

// A GBNF expression (no rule references) for integers within the bounds;
// an error when no integer fits.
Result<std::string> integer_range_gbnf(std::optional<NumericBound> lower,
                                       std::optional<NumericBound> upper);

// The same for JSON numbers; fraction digits are at most 15.
Result<std::string> number_range_gbnf(std::optional<NumericBound> lower,
                                      std::optional<NumericBound> upper);

}  // namespace ingot::sampling::grammar
