#include "chat/tool_calls/python_literal.h"

#include <cctype>
#include <string>

#include "chat/tool_calls/call_syntax.h"
#include "chat/tool_calls/scan_rules.h"
#include "util/utf8.h"

namespace ingot::chat::tool_calls {
namespace {

using Json = nlohmann::ordered_json;

// Nesting deeper than this is not a literal a template or a model writes.

void skip_space(std::string_view text, size_t& at) {
  while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at]))) ++at;
}

bool hex_value(std::string_view digits, uint32_t& value) {
  value = 0;
  for (char c : digits) {
    int digit = std::isdigit(static_cast<unsigned char>(c)) ? c - '0'
                : (c >= 'a' && c <= 'f')                    ? c - 'a' + 10
                : (c >= 'A' && c <= 'F')                    ? c - 'A' + 10
                                                            : -1;
    if (digit < 0) return false;
    value = value * 16 + static_cast<uint32_t>(digit);
  }
  return true;
}

// After the backslash: one escape's text appended to `out`.
bool read_escape(std::string_view text, size_t& at, std::string& out) {
  if (at >= text.size()) return false;
  char c = text[at++];
  size_t hex_digits = c == 'x' ? 2 : c == 'u' ? 4 : c == 'U' ? 8 : 0;
  if (hex_digits > 0) {
    uint32_t code = 0;
    if (at + hex_digits > text.size() || !hex_value(text.substr(at, hex_digits), code)) {
      return false;
    }
    at += hex_digits;
    if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return false;
    utf8::append(out, static_cast<char32_t>(code));
    return true;
  }
  switch (c) {
    case 'n':
      out += '\n';
      return true;
    case 't':
      out += '\t';
      return true;
    case 'r':
      out += '\r';
      return true;
    case '0':
      out += '\0';
      return true;
    case 'b':
      out += '\b';
      return true;
    case 'f':
      out += '\f';
      return true;
    case '\\':
    case '\'':
    case '"':
      out += c;
      return true;
    case '\n':
      return true;  // a continued line
    default:
      out += '\\';
      out += c;
      return true;
  }
}

std::optional<Json> read_string(std::string_view text, size_t& at) {
  char quote = text[at++];
  std::string value;
  while (at < text.size()) {
    char c = text[at++];
    if (c == quote) return Json(std::move(value));
    if (c == '\\') {
      if (!read_escape(text, at, value)) return std::nullopt;
    } else {
      value += c;
    }
  }
  return std::nullopt;
}

bool is_word_byte(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '+' ||
         c == '-';
}

// A number or True/False/None.
std::optional<Json> read_word(std::string_view text, size_t& at) {
  size_t start = at;
  while (at < text.size() && is_word_byte(text[at])) {
    // A sign inside a number only right after its exponent's 'e'.
    if ((text[at] == '+' || text[at] == '-') && at > start &&
        std::tolower(static_cast<unsigned char>(text[at - 1])) != 'e') {
      break;
    }
    ++at;
  }
  std::string_view word = text.substr(start, at - start);
  if (word == "True" || word == "true") return Json(true);
  if (word == "False" || word == "false") return Json(false);
  if (word == "None" || word == "null") return Json(nullptr);
  if (word.empty()) return std::nullopt;
  Json number = Json::parse(word, nullptr, false);
  if (number.is_number()) return number;
  // Python writes floats JSON does not: 1., .5, 1_000.
  std::string cleaned;
  for (char c : word) {
    if (c != '_') cleaned += c;
  }
  if (cleaned.ends_with('.')) cleaned += '0';
  if (cleaned.starts_with('.')) cleaned = "0" + cleaned;
  if (cleaned.starts_with("-.")) cleaned = "-0" + cleaned.substr(1);
  number = Json::parse(cleaned, nullptr, false);
  if (number.is_number()) return number;
  return std::nullopt;
}

std::optional<Json> read_value(std::string_view text, size_t& at, int depth);

// A list, tuple or dict after its opening bracket.
std::optional<Json> read_container(std::string_view text, size_t& at, int depth) {
  char open = text[at++];
  char close = open == '[' ? ']' : open == '(' ? ')' : '}';
  Json result = open == '{' ? Json::object() : Json::array();
  for (;;) {
    skip_space(text, at);
    if (at >= text.size()) return std::nullopt;
    if (text[at] == close) {
      ++at;
      return result;
    }
    std::optional<Json> item = read_value(text, at, depth + 1);
    if (!item) return std::nullopt;
    if (open == '{') {
      skip_space(text, at);
      if (at >= text.size() || text[at] != ':') return std::nullopt;
      ++at;
      std::optional<Json> value = read_value(text, at, depth + 1);
      if (!value) return std::nullopt;
      std::string key = item->is_string() ? item->get<std::string>() : item->dump();
      result[key] = std::move(*value);
    } else {
      result.push_back(std::move(*item));
    }
    skip_space(text, at);
    if (at < text.size() && text[at] == ',') {
      ++at;
    } else if (at >= text.size() || text[at] != close) {
      return std::nullopt;
    }
  }
}

std::optional<Json> read_value(std::string_view text, size_t& at, int depth) {
  if (depth > kMaxArgumentNesting) return std::nullopt;
  skip_space(text, at);
  if (at >= text.size()) return std::nullopt;
  char c = text[at];
  if (c == '\'' || c == '"') return read_string(text, at);
  if (c == '[' || c == '(' || c == '{') return read_container(text, at, depth);
  return read_word(text, at);
}

// `key=value, ...)`: the keyword arguments up to the call's closing
// parenthesis, which is read too.
std::optional<Json> read_keyword_arguments(std::string_view text, size_t& at) {
  Json arguments = Json::object();
  for (;;) {
    skip_space(text, at);
    if (at < text.size() && text[at] == ')') {
      ++at;
      return arguments;
    }
    size_t key_start = at;
    while (at < text.size() && is_name_byte(text[at])) ++at;
    std::string key(text.substr(key_start, at - key_start));
    skip_space(text, at);
    if (key.empty() || at >= text.size() || text[at] != '=') return std::nullopt;
    ++at;
    std::optional<Json> value = read_value(text, at, 0);
    if (!value) return std::nullopt;
    arguments[key] = std::move(*value);
    skip_space(text, at);
    if (at < text.size() && text[at] == ',') {
      ++at;
    } else if (at >= text.size() || text[at] != ')') {
      return std::nullopt;
    }
  }
}

}  // namespace

std::optional<nlohmann::ordered_json> parse_python_literal(std::string_view text) {
  size_t at = 0;
  std::optional<Json> value = read_value(text, at, 0);
  skip_space(text, at);
  if (!value || at != text.size()) return std::nullopt;
  return value;
}

std::optional<PythonCall> parse_python_call(std::string_view text) {
  size_t at = 0;
  skip_space(text, at);
  size_t start = at;
  while (at < text.size() && is_name_byte(text[at])) ++at;
  std::string name(text.substr(start, at - start));
  skip_space(text, at);
  if (name.empty() || at >= text.size() || text[at] != '(') return std::nullopt;
  ++at;
  std::optional<Json> arguments = read_keyword_arguments(text, at);
  skip_space(text, at);
  if (!arguments || at != text.size()) return std::nullopt;
  return PythonCall{std::move(name), std::move(*arguments)};
}

}  // namespace ingot::chat::tool_calls
