#include "server/http/bearer_auth.h"

#include <cstdint>

namespace ingot::server {

bool constant_time_equal(std::string_view a, std::string_view b) {
  // Walk the expected key's full length whatever the input, folding every
  // difference (and the length mismatch) into one accumulator.
  uint8_t diff = a.size() == b.size() ? 0 : 1;
  for (size_t i = 0; i < b.size(); ++i) {
    uint8_t x = i < a.size() ? static_cast<uint8_t>(a[i]) : 0;
    diff |= static_cast<uint8_t>(x ^ static_cast<uint8_t>(b[i]));
  }
  return diff == 0;
}

bool bearer_matches(std::string_view authorization, std::string_view api_key) {
  constexpr std::string_view kScheme = "Bearer ";
  if (authorization.size() < kScheme.size()) return false;
  for (size_t i = 0; i < kScheme.size(); ++i) {
    char c = authorization[i];
    char lower = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    char expected = (kScheme[i] >= 'A' && kScheme[i] <= 'Z')
                        ? static_cast<char>(kScheme[i] - 'A' + 'a')
                        : kScheme[i];
    if (lower != expected) return false;
  }
  std::string_view token = authorization.substr(kScheme.size());
  while (!token.empty() && token.front() == ' ') token.remove_prefix(1);
  return constant_time_equal(token, api_key);
}

}  // namespace ingot::server
