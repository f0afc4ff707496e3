#include "tokenizer/byte_level.h"

#include <array>

#include "util/utf8.h"

namespace ingot::tokenizer::byte_level {
namespace {

bool stands_for_itself(int byte) {
  return (byte >= '!' && byte <= '~') || (byte >= 0xA1 && byte <= 0xAC) ||
         (byte >= 0xAE && byte <= 0xFF);
}

struct Tables {
  std::array<std::string, 256> text_of_byte;
  // Indexed by code point (all stand-ins are below U+0144).
  std::array<int16_t, 0x144> byte_of_code_point;

  Tables() {
    byte_of_code_point.fill(-1);
    char32_t next_shifted = 0x100;
    for (int byte = 0; byte < 256; ++byte) {
      char32_t code_point = stands_for_itself(byte) ? static_cast<char32_t>(byte) : next_shifted++;
      utf8::append(text_of_byte[byte], code_point);
      byte_of_code_point[code_point] = static_cast<int16_t>(byte);
    }
  }
};

const Tables& tables() {
  static const Tables instance;
  return instance;
}

}  // namespace

std::string_view encode_byte(uint8_t byte) {
  return tables().text_of_byte[byte];
}

void encode(std::string_view bytes, std::string& out) {
  const Tables& t = tables();
  for (char byte : bytes) out += t.text_of_byte[static_cast<uint8_t>(byte)];
}

std::string decode(std::string_view text) {
  const Tables& t = tables();
  std::string out;
  out.reserve(text.size());
  size_t pos = 0;
  while (pos < text.size()) {
    size_t start = pos;
    char32_t code_point = utf8::decode(text, pos);
    if (code_point < t.byte_of_code_point.size() && t.byte_of_code_point[code_point] >= 0) {
      out += static_cast<char>(t.byte_of_code_point[code_point]);
    } else {
      out.append(text.substr(start, pos - start));
    }
  }
  return out;
}

}  // namespace ingot::tokenizer::byte_level
