#include "chat/jinja/lexer.h"

#include <algorithm>
#include <array>
#include <cctype>

#include "chat/jinja/py_string.h"
#include "util/utf8.h"

namespace ingot::chat::jinja {
namespace {

// Jinja2 reads "\r\n" and "\r" as "\n" and, keep_trailing_newline being
// off, drops one newline at the very end.
std::string normalize_newlines(std::string_view source) {
  std::string out;
  out.reserve(source.size());
  for (size_t i = 0; i < source.size(); ++i) {
    if (source[i] == '\r') {
      out += '\n';
      if (i + 1 < source.size() && source[i + 1] == '\n') ++i;
    } else {
      out += source[i];
    }
  }
  if (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

bool is_ascii_space(char c) {
  return c == ' ' || (c >= '\t' && c <= '\r');
}

// Python's \s at `pos`: the byte length of one whitespace code point, or 0.
size_t space_length(std::string_view text, size_t pos) {
  if (pos >= text.size()) return 0;
  if (is_ascii_space(text[pos])) return 1;
  if (static_cast<unsigned char>(text[pos]) < 0x80) return 0;
  size_t next = pos;
  char32_t c = utf8::decode(text, next);
  return py::is_space(c) ? next - pos : 0;
}

size_t skip_spaces(std::string_view text, size_t pos) {
  while (size_t n = space_length(text, pos)) pos += n;
  return pos;
}

std::string rstrip_spaces(std::string_view text) {
  return py::strip(text, std::nullopt, false, true);
}

bool only_spaces(std::string_view text) {
  if (text.empty()) return false;
  return skip_spaces(text, 0) == text.size();
}

const std::array<std::string_view, 6> kTwoCharOperators = {"//", "**", "==", "!=", "<=", ">="};
constexpr std::string_view kOneCharOperators = "+-/*%~[](){}<>=.:|,;";

class Lexer {
 public:
  explicit Lexer(std::string_view source) : src_(normalize_newlines(source)) {
    line_starts_.push_back(0);
    for (size_t i = 0; i < src_.size(); ++i) {
      if (src_[i] == '\n') line_starts_.push_back(i + 1);
    }
  }

  std::vector<Token> run() {
    while (pos_ < src_.size()) lex_root();
    tokens_.push_back({TokenType::kEnd, "", position(src_.size())});
    return std::move(tokens_);
  }

 private:
  SourcePos position(size_t offset) const {
    auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
    size_t line = static_cast<size_t>(it - line_starts_.begin());
    return {static_cast<int>(line), static_cast<int>(offset - line_starts_[line - 1] + 1)};
  }

  [[noreturn]] void fail(size_t offset, std::string message) const {
    throw_syntax_error(position(offset), std::move(message));
  }

  void emit(TokenType type, std::string value, size_t offset) {
    tokens_.push_back({type, std::move(value), position(offset)});
  }

  // Text before a tag, after whitespace control: `sign` is the tag's '-',
  // '+' or 0; lstrip applies to block and comment tags only.
  void emit_data(std::string_view text, size_t offset, char sign, bool lstrip_applies) {
    std::string data(text);
    if (sign == '-') {
      data = rstrip_spaces(text);
    } else if (sign != '+' && lstrip_applies) {
      size_t line_begin = text.rfind('\n');
      line_begin = line_begin == std::string_view::npos ? 0 : line_begin + 1;
      if ((line_begin > 0 || line_starting_) && only_spaces(text.substr(line_begin))) {
        data = std::string(text.substr(0, line_begin));
      }
    }
    if (!data.empty()) emit(TokenType::kData, std::move(data), offset);
  }

  void lex_root() {
    size_t tag = src_.find('{', pos_);
    while (tag != std::string::npos && tag + 1 < src_.size() && src_[tag + 1] != '{' &&
           src_[tag + 1] != '%' && src_[tag + 1] != '#') {
      tag = src_.find('{', tag + 1);
    }
    if (tag == std::string::npos || tag + 1 >= src_.size()) {
      emit(TokenType::kData, src_.substr(pos_), pos_);
      pos_ = src_.size();
      return;
    }
    char kind = src_[tag + 1];
    char sign = (tag + 2 < src_.size() && (src_[tag + 2] == '-' || src_[tag + 2] == '+'))
                    ? src_[tag + 2]
                    : 0;
    std::string_view text = std::string_view(src_).substr(pos_, tag - pos_);
    size_t body = tag + 2 + (sign ? 1 : 0);
    if (kind == '%' && try_raw(text, tag, sign, body)) return;
    emit_data(text, pos_, sign, kind != '{');
    if (kind == '#') {
      lex_comment(tag, body);
    } else {
      lex_tag(tag, body, kind == '%');
    }
  }

  // Matches an end marker at `at`: "+%}", "-%}" plus whitespace, or "%}"
  // plus one newline (trim_blocks). Returns the offset past it, or npos.
  size_t match_block_end(size_t at, char close) const {
    std::string_view rest = std::string_view(src_).substr(at);
    std::string end_marker = {close, '}'};
    if (rest.size() >= 3 && rest[0] == '+' && rest.substr(1, 2) == end_marker) return at + 3;
    if (rest.size() >= 3 && rest[0] == '-' && rest.substr(1, 2) == end_marker) {
      return skip_spaces(src_, at + 3);
    }
    if (rest.substr(0, 2) == end_marker) {
      size_t end = at + 2;
      if (end < src_.size() && src_[end] == '\n') ++end;
      return end;
    }
    return std::string::npos;
  }

  size_t match_variable_end(size_t at) const {
    std::string_view rest = std::string_view(src_).substr(at);
    if (rest.substr(0, 3) == "-}}") return skip_spaces(src_, at + 3);
    if (rest.substr(0, 2) == "}}") return at + 2;
    return std::string::npos;
  }

  void finish_tag(size_t end) {
    line_starting_ = end > 0 && src_[end - 1] == '\n';
    pos_ = end;
  }

  // {% raw %}...{% endraw %}: the body is data, untouched.
  bool try_raw(std::string_view text, size_t tag, char sign, size_t body) {
    size_t p = skip_spaces(src_, body);
    if (src_.compare(p, 3, "raw") != 0) return false;
    p = skip_spaces(src_, p + 3);
    size_t after;
    if (src_.compare(p, 3, "-%}") == 0) {
      after = skip_spaces(src_, p + 3);
    } else if (src_.compare(p, 2, "%}") == 0) {
      after = p + 2;
    } else {
      return false;
    }
    emit_data(text, pos_, sign, true);
    finish_tag(after);
    for (size_t at = src_.find("{%", pos_); at != std::string::npos; at = src_.find("{%", at + 1)) {
      char end_sign = (src_[at + 2] == '-' || src_[at + 2] == '+') ? src_[at + 2] : 0;
      size_t q = skip_spaces(src_, at + 2 + (end_sign ? 1 : 0));
      if (src_.compare(q, 6, "endraw") != 0) continue;
      size_t end = match_block_end(skip_spaces(src_, q + 6), '%');
      if (end == std::string::npos) continue;
      emit_data(std::string_view(src_).substr(pos_, at - pos_), pos_, end_sign, true);
      finish_tag(end);
      return true;
    }
    fail(tag, "Missing end of raw directive");
  }

  void lex_comment(size_t tag, size_t body) {
    for (size_t at = src_.find("#}", body); at != std::string::npos; at = src_.find("#}", at + 1)) {
      size_t start = at;
      if (at > body && (src_[at - 1] == '-' || src_[at - 1] == '+')) start = at - 1;
      size_t end = match_block_end(start, '#');
      if (end == std::string::npos) end = match_block_end(at, '#');
      finish_tag(end);
      return;
    }
    fail(tag, "Missing end of comment tag");
  }

  void lex_tag(size_t tag, size_t body, bool is_block) {
    emit(is_block ? TokenType::kBlockBegin : TokenType::kVariableBegin, "", tag);
    std::vector<char> balance;
    size_t p = body;
    while (true) {
      p = skip_spaces(src_, p);
      if (p >= src_.size()) {
        fail(p, is_block ? "unexpected end of template, expected end of block"
                         : "unexpected end of template, expected end of print statement");
      }
      if (balance.empty()) {
        size_t end = is_block ? match_block_end(p, '%') : match_variable_end(p);
        if (end != std::string::npos) {
          emit(is_block ? TokenType::kBlockEnd : TokenType::kVariableEnd, "", p);
          finish_tag(end);
          return;
        }
      }
      p = lex_token(p, balance);
    }
  }

  size_t lex_token(size_t p, std::vector<char>& balance) {
    unsigned char c = static_cast<unsigned char>(src_[p]);
    if (std::isdigit(c)) return lex_number(p);
    if (std::isalpha(c) || c == '_') {
      size_t end = p;
      while (end < src_.size() &&
             (std::isalnum(static_cast<unsigned char>(src_[end])) || src_[end] == '_')) {
        ++end;
      }
      emit(TokenType::kName, src_.substr(p, end - p), p);
      return end;
    }
    if (c == '\'' || c == '"') return lex_string(p);
    for (std::string_view op : kTwoCharOperators) {
      if (src_.compare(p, 2, op) == 0) {
        emit(TokenType::kOperator, std::string(op), p);
        return p + 2;
      }
    }
    if (kOneCharOperators.find(static_cast<char>(c)) == std::string_view::npos) {
      fail(p, "unexpected char '" + std::string(1, static_cast<char>(c)) + "'");
    }
    track_balance(p, static_cast<char>(c), balance);
    emit(TokenType::kOperator, std::string(1, static_cast<char>(c)), p);
    return p + 1;
  }

  void track_balance(size_t p, char c, std::vector<char>& balance) {
    if (c == '(') balance.push_back(')');
    if (c == '[') balance.push_back(']');
    if (c == '{') balance.push_back('}');
    if (c == ')' || c == ']' || c == '}') {
      if (balance.empty()) fail(p, std::string("unexpected '") + c + "'");
      if (balance.back() != c) {
        fail(p, std::string("unexpected '") + c + "', expected '" + balance.back() + "'");
      }
      balance.pop_back();
    }
  }

  // Digits with single underscores between them: (\d+_)*\d+
  size_t scan_digits(size_t p) const {
    size_t end = p;
    while (end < src_.size() && std::isdigit(static_cast<unsigned char>(src_[end]))) {
      ++end;
      if (end + 1 < src_.size() && src_[end] == '_' &&
          std::isdigit(static_cast<unsigned char>(src_[end + 1]))) {
        ++end;
      }
    }
    return end;
  }

  size_t lex_number(size_t p) {
    size_t end = scan_digits(p);
    bool is_float = false;
    auto digit_at = [&](size_t i) {
      return i < src_.size() && std::isdigit(static_cast<unsigned char>(src_[i]));
    };
    if (end < src_.size() && src_[end] == '.' && digit_at(end + 1)) {
      end = scan_digits(end + 1);
      is_float = true;
    }
    if (end < src_.size() && (src_[end] == 'e' || src_[end] == 'E')) {
      size_t e = end + 1;
      if (e < src_.size() && (src_[e] == '+' || src_[e] == '-')) ++e;
      if (digit_at(e)) {
        end = scan_digits(e);
        is_float = true;
      }
    }
    std::string text = src_.substr(p, end - p);
    std::erase(text, '_');
    emit(is_float ? TokenType::kFloat : TokenType::kInteger, std::move(text), p);
    return end;
  }

  size_t lex_string(size_t p) {
    char quote = src_[p];
    std::string value;
    size_t i = p + 1;
    while (i < src_.size() && src_[i] != quote) {
      if (src_[i] == '\\' && i + 1 < src_.size()) {
        i = unescape(i, value);
      } else {
        value += src_[i++];
      }
    }
    if (i >= src_.size()) fail(p, "unexpected end of string");
    emit(TokenType::kString, std::move(value), p);
    return i + 1;
  }

  size_t read_hex(size_t at, int digits, char32_t& out) const {
    out = 0;
    for (int k = 0; k < digits; ++k) {
      if (at + k >= src_.size() || !std::isxdigit(static_cast<unsigned char>(src_[at + k]))) {
        fail(at, "truncated escape in string literal");
      }
      char h = src_[at + k];
      out = out * 16 + static_cast<char32_t>(std::isdigit(static_cast<unsigned char>(h))
                                                 ? h - '0'
                                                 : std::tolower(h) - 'a' + 10);
    }
    return at + digits;
  }

  // Python's unicode-escape decoding of one backslash sequence at `i`.
  size_t unescape(size_t i, std::string& value) {
    char e = src_[i + 1];
    switch (e) {
      case '\n':
        return i + 2;
      case '\\':
        value += '\\';
        return i + 2;
      case '\'':
        value += '\'';
        return i + 2;
      case '"':
        value += '"';
        return i + 2;
      case 'a':
        value += '\a';
        return i + 2;
      case 'b':
        value += '\b';
        return i + 2;
      case 'f':
        value += '\f';
        return i + 2;
      case 'n':
        value += '\n';
        return i + 2;
      case 'r':
        value += '\r';
        return i + 2;
      case 't':
        value += '\t';
        return i + 2;
      case 'v':
        value += '\v';
        return i + 2;
      default:
        break;
    }
    char32_t code = 0;
    size_t next;
    if (e >= '0' && e <= '7') {
      next = i + 1;
      while (next < i + 4 && next < src_.size() && src_[next] >= '0' && src_[next] <= '7') {
        code = code * 8 + static_cast<char32_t>(src_[next] - '0');
        ++next;
      }
    } else if (e == 'x') {
      next = read_hex(i + 2, 2, code);
    } else if (e == 'u') {
      next = read_hex(i + 2, 4, code);
    } else if (e == 'U') {
      next = read_hex(i + 2, 8, code);
      if (code > 0x10FFFF) fail(i, "illegal Unicode character in string literal");
    } else if (e == 'N') {
      fail(i, "malformed \\N character escape");
    } else {
      value += '\\';  // an unknown escape keeps its backslash
      return i + 1;
    }
    utf8::append(value, code);
    return next;
  }

  std::string src_;
  std::vector<size_t> line_starts_;
  std::vector<Token> tokens_;
  size_t pos_ = 0;
  bool line_starting_ = true;
};

}  // namespace

std::vector<Token> tokenize(std::string_view source) {
  return Lexer(source).run();
}

}  // namespace ingot::chat::jinja
