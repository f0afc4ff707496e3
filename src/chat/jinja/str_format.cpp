// Python's str.format: replacement fields {}, {0}, {name}, with !r/!s
// conversions and a format spec of [[fill]align][width][.precision][type].

#include <cstdio>

#include "chat/jinja/errors.h"
#include "chat/jinja/interpreter.h"
#include "chat/jinja/methods.h"
#include "chat/jinja/py_string.h"
#include "chat/jinja/value_format.h"

namespace ingot::chat::jinja {
namespace {

struct FormatSpec {
  char32_t fill = ' ';
  char align = 0;
  size_t width = 0;
  int precision = -1;
  char type = 0;
};

FormatSpec parse_spec(const std::string& text) {
  FormatSpec spec;
  std::u32string cps = py::decode(text);
  size_t i = 0;
  auto is_align = [](char32_t c) { return c == '<' || c == '>' || c == '^' || c == '='; };
  if (cps.size() >= 2 && is_align(cps[1])) {
    spec.fill = cps[0];
    spec.align = static_cast<char>(cps[1]);
    i = 2;
  } else if (!cps.empty() && is_align(cps[0])) {
    spec.align = static_cast<char>(cps[0]);
    i = 1;
  }
  while (i < cps.size() && cps[i] >= '0' && cps[i] <= '9') {
    spec.width = std::min<size_t>(spec.width * 10 + (cps[i++] - '0'), 100000);
  }
  if (i < cps.size() && cps[i] == '.') {
    spec.precision = 0;
    while (++i < cps.size() && cps[i] >= '0' && cps[i] <= '9') {
      spec.precision = std::min(spec.precision * 10 + static_cast<int>(cps[i] - '0'), 100);
    }
  }
  if (i < cps.size()) spec.type = static_cast<char>(cps[i++]);
  if (i != cps.size()) throw_render_error("Invalid format specifier '" + text + "'");
  return spec;
}

std::string apply_spec(const Value& value, const std::string& spec_text) {
  if (spec_text.empty()) return to_str(value);
  FormatSpec spec = parse_spec(spec_text);
  std::string body;
  if (spec.type == 'f' || spec.type == 'e' || spec.type == 'g') {
    if (!value.is_number()) throw_render_error("Unknown format code for non-number");
    char buf[512];
    char fmt[8] = {'%', '.', '*', spec.type, 0};
    std::snprintf(buf, sizeof buf, fmt, spec.precision < 0 ? 6 : spec.precision, value.to_double());
    body = buf;
  } else if (spec.type == 'd') {
    if (!value.is_integral()) throw_render_error("Unknown format code 'd'");
    body = std::to_string(value.integral());
  } else {
    body = to_str(value);
    if (spec.precision >= 0 && value.is_string()) {
      std::u32string cps = py::decode(body);
      if (cps.size() > static_cast<size_t>(spec.precision))
        cps.resize(static_cast<size_t>(spec.precision));
      body = py::encode(cps);
    }
  }
  size_t length = py::length(body);
  if (length >= spec.width) return body;
  size_t pad = spec.width - length;
  char align = spec.align ? spec.align : (value.is_number() ? '>' : '<');
  std::u32string fill(1, spec.fill);
  auto repeat = [&](size_t n) {
    std::string out;
    for (size_t k = 0; k < n; ++k) out += py::encode(fill);
    return out;
  };
  if (align == '<') return body + repeat(pad);
  if (align == '^') return repeat(pad / 2) + body + repeat(pad - pad / 2);
  return repeat(pad) + body;
}

Value lookup_field(const std::string& field, const CallArgs& args, size_t& auto_index) {
  if (field.empty()) {
    if (auto_index >= args.positional.size()) {
      throw_render_error("Replacement index " + std::to_string(auto_index) + " out of range");
    }
    return args.positional[auto_index++];
  }
  if (std::isdigit(static_cast<unsigned char>(field[0]))) {
    size_t index = std::stoul(field.substr(0, 9));
    if (index >= args.positional.size()) throw_render_error("Replacement index out of range");
    return args.positional[index];
  }
  for (const auto& [key, value] : args.keyword) {
    if (key == field) return value;
  }
  throw_render_error("KeyError: '" + field + "'");
}

}  // namespace

std::string python_str_format(const std::string& format, const CallArgs& args) {
  std::string out;
  size_t auto_index = 0;
  for (size_t i = 0; i < format.size(); ++i) {
    char c = format[i];
    if (c == '}') {
      if (i + 1 < format.size() && format[i + 1] == '}') {
        out += '}';
        ++i;
        continue;
      }
      throw_render_error("Single '}' encountered in format string");
    }
    if (c != '{') {
      out += c;
      continue;
    }
    if (i + 1 < format.size() && format[i + 1] == '{') {
      out += '{';
      ++i;
      continue;
    }
    size_t close = format.find('}', i);
    if (close == std::string::npos) throw_render_error("Single '{' encountered in format string");
    std::string field = format.substr(i + 1, close - i - 1);
    std::string spec;
    if (size_t colon = field.find(':'); colon != std::string::npos) {
      spec = field.substr(colon + 1);
      field.resize(colon);
    }
    char conversion = 0;
    if (size_t bang = field.find('!'); bang != std::string::npos) {
      conversion = bang + 1 < field.size() ? field[bang + 1] : 0;
      field.resize(bang);
    }
    Value value = lookup_field(field, args, auto_index);
    if (conversion == 'r') value = Value::string(to_repr(value));
    out += apply_spec(value, spec);
    i = close;
  }
  return out;
}

}  // namespace ingot::chat::jinja
