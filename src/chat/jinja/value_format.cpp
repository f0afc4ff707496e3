#include "chat/jinja/value_format.h"

#include <charconv>
#include <cmath>
#include <cstdio>

#include "util/utf8.h"

namespace ingot::chat::jinja {
namespace {

// str.isprintable() for the code points chat text contains: controls,
// separators other than space, and the common format characters are not.
bool is_printable(char32_t c) {
  if (c < 0x20 || (c >= 0x7F && c <= 0xA0) || c == 0xAD) return false;
  if (c == 0x1680 || (c >= 0x2000 && c <= 0x200F) || (c >= 0x2028 && c <= 0x202F)) return false;
  if ((c >= 0x205F && c <= 0x2064) || (c >= 0x2066 && c <= 0x206F)) return false;
  if (c == 0x3000 || c == 0xFEFF || (c >= 0xD800 && c <= 0xDFFF)) return false;
  if ((c >= 0xE000 && c <= 0xF8FF) || c == 0xFFFE || c == 0xFFFF) return false;
  if (c >= 0xF0000) return false;
  return true;
}

void append_hex_escape(std::string& out, char prefix, char32_t c, int digits) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "\\%c%0*x", prefix, digits, static_cast<unsigned>(c));
  out += buf;
}

void append_string_repr(std::string& out, const std::string& text) {
  bool has_single = text.find('\'') != std::string::npos;
  bool has_double = text.find('"') != std::string::npos;
  char quote = (has_single && !has_double) ? '"' : '\'';
  out += quote;
  size_t pos = 0;
  while (pos < text.size()) {
    char32_t c = utf8::decode(text, pos);
    if (c == static_cast<char32_t>(quote) || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (is_printable(c)) {
      utf8::append(out, c);
    } else if (c <= 0xFF) {
      append_hex_escape(out, 'x', c, 2);
    } else if (c <= 0xFFFF) {
      append_hex_escape(out, 'u', c, 4);
    } else {
      append_hex_escape(out, 'U', c, 8);
    }
  }
  out += quote;
}

void append_sequence_repr(std::string& out, const List& list) {
  if (list.is_iterator) {
    out += "<generator object>";
    return;
  }
  if (!list.view_name.empty()) {
    out += list.view_name;
    out += "([";
    for (size_t i = 0; i < list.items.size(); ++i) {
      if (i > 0) out += ", ";
      append_repr(out, list.items[i]);
    }
    out += "])";
    return;
  }
  out += list.is_tuple ? '(' : '[';
  for (size_t i = 0; i < list.items.size(); ++i) {
    if (i > 0) out += ", ";
    append_repr(out, list.items[i]);
  }
  if (list.is_tuple && list.items.size() == 1) out += ',';
  out += list.is_tuple ? ')' : ']';
}

void append_dict_repr(std::string& out, const Dict& dict) {
  out += '{';
  bool first = true;
  for (const auto& [key, value] : dict.items) {
    if (!first) out += ", ";
    first = false;
    append_repr(out, key);
    out += ": ";
    append_repr(out, value);
  }
  out += '}';
}

}  // namespace

std::string python_float_repr(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  if (value == 0.0) return std::signbit(value) ? "-0.0" : "0.0";
  char buf[64];
  auto result = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::scientific);
  std::string sci(buf, result.ptr);
  std::string sign;
  if (sci[0] == '-') {
    sign = "-";
    sci.erase(0, 1);
  }
  size_t e = sci.find('e');
  std::string digits = sci.substr(0, e);
  if (digits.size() > 1) digits.erase(1, 1);  // drop the '.'
  int exponent = std::stoi(sci.substr(e + 1));
  int decpt = exponent + 1;  // value = 0.digits * 10^decpt
  int n = static_cast<int>(digits.size());
  std::string out = sign;
  if (decpt <= -4 || decpt > 16) {
    out += digits[0];
    if (n > 1) out += "." + digits.substr(1);
    char exp_buf[16];
    std::snprintf(exp_buf, sizeof exp_buf, "e%c%02d", exponent < 0 ? '-' : '+', std::abs(exponent));
    out += exp_buf;
  } else if (decpt <= 0) {
    out += "0." + std::string(-decpt, '0') + digits;
  } else if (decpt >= n) {
    out += digits + std::string(decpt - n, '0') + ".0";
  } else {
    out += digits.substr(0, decpt) + "." + digits.substr(decpt);
  }
  return out;
}

void append_str(std::string& out, const Value& value) {
  if (value.is_string()) {
    out += value.as_string();
  } else if (value.is_undefined()) {
    // Jinja2's default Undefined prints as nothing.
  } else {
    append_repr(out, value);
  }
}

std::string to_str(const Value& value) {
  if (value.is_string()) return value.as_string();
  std::string out;
  append_str(out, value);
  return out;
}

void append_repr(std::string& out, const Value& value) {
  if (value.is_undefined()) {
    out += "Undefined";
  } else if (value.is_none()) {
    out += "None";
  } else if (value.is_bool()) {
    out += value.as_bool() ? "True" : "False";
  } else if (value.is_int()) {
    out += std::to_string(value.as_int());
  } else if (value.is_float()) {
    out += python_float_repr(value.as_float());
  } else if (value.is_string()) {
    append_string_repr(out, value.as_string());
  } else if (value.is_list()) {
    append_sequence_repr(out, value.as_list());
  } else if (value.is_dict()) {
    append_dict_repr(out, value.as_dict());
  } else {
    out += value.as_object().repr();
  }
}

std::string to_repr(const Value& value) {
  std::string out;
  append_repr(out, value);
  return out;
}

std::string html_escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&#34;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace ingot::chat::jinja
