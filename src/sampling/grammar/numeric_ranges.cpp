#include "sampling/grammar/numeric_ranges.h"

#include <algorithm>
#include <vector>

#include "sampling/grammar/gbnf_text.h"
#include "sampling/grammar/json_primitives.h"

namespace ingot::sampling::grammar {
namespace {

constexpr int64_t kMaxMagnitude = 999'999'999'999'999;  // kMaxIntegerDigits nines
static_assert(kMaxIntegerDigits == 15);

constexpr std::string_view kAnyFraction = R"(( "." [0-9]{1,15} )?)";
constexpr std::string_view kZeroFraction = R"(( "." "0"{1,15} )?)";
constexpr std::string_view kNonZeroFraction = R"("." "0"{0,14} [1-9] [0-9]{0,14})";

std::string group(const std::string& expression) {
  return expression.find('|') == std::string::npos ? expression : "( " + expression + " )";
}

std::string digit_class(char first, char last) {
  if (first == last) return gbnf_literal(std::string(1, first));
  std::string out = "[";
  out += first;
  out += '-';
  out += last;
  out += ']';
  return out;
}

std::string any_digits(size_t count) {
  return gbnf_repeat("[0-9]", count, count);
}

// Digit strings of one length between `low` and `high` (inclusive).
std::string digits_between(const std::string& low, const std::string& high) {
  if (low == high) return gbnf_literal(low);
  if (low.size() == 1) return digit_class(low[0], high[0]);
  std::string low_rest = low.substr(1);
  std::string high_rest = high.substr(1);
  if (low[0] == high[0]) {
    return gbnf_literal(low.substr(0, 1)) + " " + group(digits_between(low_rest, high_rest));
  }
  std::vector<std::string> alternatives;
  char first = low[0];
  char last = high[0];
  std::string zeros(low_rest.size(), '0');
  std::string nines(low_rest.size(), '9');
  if (low_rest != zeros) {
    alternatives.push_back(gbnf_literal(low.substr(0, 1)) + " " +
                           group(digits_between(low_rest, nines)));
    ++first;
  }
  bool high_partial = high_rest != nines;
  if (high_partial) --last;
  if (first <= last)
    alternatives.push_back(digit_class(first, last) + " " + any_digits(low_rest.size()));
  if (high_partial) {
    alternatives.push_back(gbnf_literal(high.substr(0, 1)) + " " +
                           group(digits_between(zeros, high_rest)));
  }
  return join_alternatives(alternatives);
}

int64_t power_of_ten(size_t exponent) {
  int64_t value = 1;
  while (exponent-- > 0) value *= 10;
  return value;
}

// Non-negative integers in [low, high] without leading zeros; low <= high.
std::string naturals_between(int64_t low, int64_t high) {
  std::vector<std::string> alternatives;
  if (low == 0) {
    alternatives.push_back("\"0\"");
    low = 1;
    if (high == 0) return alternatives.front();
  }
  size_t low_digits = std::to_string(low).size();
  size_t high_digits = std::to_string(high).size();
  // Runs of whole digit counts ([1-9][0-9]{d-1} for every d) merge into one
  // alternative with a counted repetition.
  // The digit count the current run starts at; 0: no run (a count is at
  // least 1). Not an optional: GCC 12 warns about reading one here.
  size_t whole_from = 0;
  auto close_whole = [&](size_t until) {
    if (whole_from == 0) return;
    alternatives.push_back("[1-9]" + std::string(until > 1 ? " " : "") +
                           gbnf_repeat("[0-9]", whole_from - 1, until - 1));
    whole_from = 0;
  };
  for (size_t digits = low_digits; digits <= high_digits; ++digits) {
    int64_t first = digits == low_digits ? low : power_of_ten(digits - 1);
    int64_t last = digits == high_digits ? high : power_of_ten(digits) - 1;
    bool whole = first == power_of_ten(digits - 1) && last == power_of_ten(digits) - 1;
    if (whole) {
      if (whole_from == 0) whole_from = digits;
      continue;
    }
    close_whole(digits - 1);
    alternatives.push_back(digits_between(std::to_string(first), std::to_string(last)));
  }
  close_whole(high_digits);
  return join_alternatives(alternatives);
}

int64_t clamp_magnitude(int64_t value) {
  return std::clamp<int64_t>(value, -kMaxMagnitude - 1, kMaxMagnitude + 1);
}

// Numbers whose magnitude (digits without sign) lies between the bounds;
// `high` absent: up to the largest generated magnitude.
std::optional<std::string> magnitudes_between(NumericBound low, std::optional<NumericBound> high) {
  if (high && high->value > kMaxMagnitude) high.reset();
  if (low.value > kMaxMagnitude) return std::nullopt;
  if (high && low.value > high->value) return std::nullopt;
  std::string low_text = gbnf_literal(std::to_string(low.value));
  if (high && low.value == high->value) {
    if (low.exclusive || high->exclusive) return std::nullopt;
    return low_text + " " + std::string(kZeroFraction);
  }
  std::vector<std::string> alternatives;
  alternatives.push_back(low_text + " " +
                         std::string(low.exclusive ? kNonZeroFraction : kAnyFraction));
  int64_t middle_low = low.value + 1;
  int64_t middle_high = high ? high->value - 1 : kMaxMagnitude;
  if (middle_low <= middle_high) {
    alternatives.push_back(group(naturals_between(middle_low, middle_high)) + " " +
                           std::string(kAnyFraction));
  }
  if (high && !high->exclusive) {
    alternatives.push_back(gbnf_literal(std::to_string(high->value)) + " " +
                           std::string(kZeroFraction));
  }
  return join_alternatives(alternatives);
}

Error empty_range() {
  return invalid_argument("the bounds leave no value that can be generated");
}

}  // namespace

Result<std::string> integer_range_gbnf(std::optional<NumericBound> lower,
                                       std::optional<NumericBound> upper) {
  int64_t low = -kMaxMagnitude;
  int64_t high = kMaxMagnitude;
  if (lower) low = std::max(low, clamp_magnitude(lower->value) + (lower->exclusive ? 1 : 0));
  if (upper) high = std::min(high, clamp_magnitude(upper->value) - (upper->exclusive ? 1 : 0));
  if (low > high) return empty_range();
  std::vector<std::string> alternatives;
  if (high >= 0) alternatives.push_back(naturals_between(std::max<int64_t>(low, 0), high));
  if (low < 0) {
    int64_t magnitude_low = high < 0 ? -high : 1;
    alternatives.push_back("\"-\" " + group(naturals_between(magnitude_low, -low)));
  }
  return join_alternatives(alternatives);
}

Result<std::string> number_range_gbnf(std::optional<NumericBound> lower,
                                      std::optional<NumericBound> upper) {
  if (lower) lower->value = clamp_magnitude(lower->value);
  if (upper) upper->value = clamp_magnitude(upper->value);
  std::vector<std::string> alternatives;
  bool non_negative = !upper || upper->value > 0 || (upper->value == 0 && !upper->exclusive);
  if (non_negative) {
    NumericBound low{0, false};
    if (lower && lower->value >= 0) low = *lower;
    if (auto part = magnitudes_between(low, upper)) alternatives.push_back(*part);
  }
  if (!lower || lower->value < 0) {
    // -x between the bounds: x from -upper (or just above 0) to -lower.
    NumericBound low{0, true};
    if (upper && upper->value < 0) low = {-upper->value, upper->exclusive};
    std::optional<NumericBound> high;
    if (lower) high = NumericBound{-lower->value, lower->exclusive};
    if (auto part = magnitudes_between(low, high)) alternatives.push_back("\"-\" " + group(*part));
  }
  if (alternatives.empty()) return empty_range();
  return join_alternatives(alternatives);
}

}  // namespace ingot::sampling::grammar
