#include "sampling/grammar/schema_ref.h"

#include <cctype>

namespace ingot::sampling::grammar {

std::optional<std::string> ref_fragment(std::string_view ref) {
  if (ref.empty() || ref[0] != '#') return std::nullopt;
  std::string fragment;
  for (size_t i = 1; i < ref.size(); ++i) {
    bool escape = ref[i] == '%' && i + 2 < ref.size() &&
                  std::isxdigit(static_cast<unsigned char>(ref[i + 1])) &&
                  std::isxdigit(static_cast<unsigned char>(ref[i + 2]));
    if (escape) {
      fragment += static_cast<char>(std::stoi(std::string(ref.substr(i + 1, 2)), nullptr, 16));
      i += 2;
    } else {
      fragment += ref[i];
    }
  }
  return fragment;
}

}  // namespace ingot::sampling::grammar
