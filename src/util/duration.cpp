#include "util/duration.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <string>

namespace ingot {
namespace {

// Milliseconds per unit, for the units a time may end in.
double unit_scale(std::string_view unit) {
  if (unit.empty() || unit == "s") return 1e3;
  if (unit == "ms") return 1.0;
  if (unit == "m" || unit == "min") return 60e3;
  if (unit == "h") return 3600e3;
  return -1.0;
}

}  // namespace

Result<std::chrono::milliseconds> parse_duration(std::string_view text) {
  auto refuse = [&] {
    return invalid_argument(
        fmt::format("'{}' is not a time: write a number and a unit, as in 30s, 500ms or 2m", text));
  };
  double value = 0;
  const char* end = text.data() + text.size();
  auto [rest, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || rest == text.data()) return refuse();
  const double scale = unit_scale(std::string_view(rest, size_t(end - rest)));
  if (scale < 0 || !std::isfinite(value) || value < 0) return refuse();
  const double ms = value * scale;
  if (ms > 1e12) return refuse();  // beyond any timeout anyone means
  return std::chrono::milliseconds(static_cast<int64_t>(std::llround(ms)));
}

}  // namespace ingot
