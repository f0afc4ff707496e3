#include "tokenizer/utf8_repair.h"

#include "util/utf8.h"

namespace ingot::tokenizer {

std::string replace_invalid_utf8(std::string_view bytes) {
  if (utf8::is_valid(bytes)) return std::string(bytes);
  std::string out;
  out.reserve(bytes.size() + 8);
  size_t pos = 0;
  while (pos < bytes.size()) {
    size_t start = pos;
    char32_t code_point = utf8::decode(bytes, pos);
    if (code_point == 0xFFFD && pos == start + 1) {
      utf8::append(out, 0xFFFD);
    } else {
      out.append(bytes.substr(start, pos - start));
    }
  }
  return out;
}

}  // namespace ingot::tokenizer
