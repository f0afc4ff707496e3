#include "sampling/logit_bias_spec.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <string>

namespace ingot::sampling {

std::optional<std::pair<int32_t, float>> parse_logit_bias_spec(std::string_view spec) {
  const size_t sign = spec.find_first_of("+-");
  if (sign == 0 || sign == std::string_view::npos || sign + 1 == spec.size()) return std::nullopt;
  int32_t token = 0;
  const std::string_view id = spec.substr(0, sign);
  auto [end, error] = std::from_chars(id.data(), id.data() + id.size(), token);
  if (error != std::errc() || end != id.data() + id.size() || token < 0) return std::nullopt;
  const std::string_view magnitude = spec.substr(sign + 1);
  float bias = 0;
  if (magnitude == "inf") {
    bias = std::numeric_limits<float>::infinity();
  } else {
    // from_chars for floats is in GCC 12's library; strtof would take a locale.
    auto [bias_end, bias_error] =
        std::from_chars(magnitude.data(), magnitude.data() + magnitude.size(), bias);
    if (bias_error != std::errc() || bias_end != magnitude.data() + magnitude.size() ||
        !std::isfinite(bias) || bias < 0) {
      return std::nullopt;
    }
  }
  return std::pair<int32_t, float>{token, spec[sign] == '-' ? -bias : bias};
}

}  // namespace ingot::sampling
