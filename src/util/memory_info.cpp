#include "util/memory_info.h"

#include <charconv>
#include <fstream>
#include <sstream>

namespace ingot {

std::optional<uint64_t> parse_mem_available(std::string_view meminfo) {
  constexpr std::string_view kKey = "MemAvailable:";
  const size_t at = meminfo.find(kKey);
  if (at == std::string_view::npos) return std::nullopt;
  std::string_view rest = meminfo.substr(at + kKey.size());
  const size_t digits = rest.find_first_not_of(' ');
  if (digits == std::string_view::npos) return std::nullopt;
  rest = rest.substr(digits);
  uint64_t kib = 0;
  const auto [end, error] = std::from_chars(rest.data(), rest.data() + rest.size(), kib);
  if (error != std::errc() || end == rest.data()) return std::nullopt;
  return kib * 1024;
}

std::optional<uint64_t> available_memory_bytes() {
  std::ifstream file("/proc/meminfo");
  if (!file) return std::nullopt;
  std::stringstream text;
  text << file.rdbuf();
  return parse_mem_available(text.str());
}

}  // namespace ingot
