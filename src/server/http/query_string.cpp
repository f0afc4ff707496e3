#include "server/http/query_string.h"

namespace ingot::server {
namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::optional<std::string> percent_decoded(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '+') {
      out += ' ';
    } else if (text[i] != '%') {
      out += text[i];
    } else {
      if (i + 2 >= text.size()) return std::nullopt;
      const int high = hex_value(text[i + 1]), low = hex_value(text[i + 2]);
      if (high < 0 || low < 0) return std::nullopt;
      out += static_cast<char>(high * 16 + low);
      i += 2;
    }
  }
  return out;
}

}  // namespace

std::optional<std::string> query_parameter(std::string_view target, std::string_view name) {
  const size_t start = target.find('?');
  if (start == std::string_view::npos) return std::nullopt;
  std::string_view query = target.substr(start + 1);
  while (!query.empty()) {
    const size_t end = query.find('&');
    const std::string_view pair = query.substr(0, end);
    query.remove_prefix(end == std::string_view::npos ? query.size() : end + 1);
    const size_t equals = pair.find('=');
    const std::string_view key = pair.substr(0, equals);
    if (key != name) continue;
    return percent_decoded(equals == std::string_view::npos ? std::string_view()
                                                            : pair.substr(equals + 1));
  }
  return std::nullopt;
}

}  // namespace ingot::server
