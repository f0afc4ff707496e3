#include "chat/jinja/filters.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "chat/jinja/call_args.h"
#include "chat/jinja/errors.h"
#include "chat/jinja/filter_table.h"
#include "chat/jinja/interpreter.h"
#include "chat/jinja/json_convert.h"
#include "chat/jinja/methods.h"
#include "chat/jinja/operators.h"
#include "chat/jinja/py_string.h"
#include "chat/jinja/value_format.h"

// The filters over strings and numbers, and the lookup by name.

namespace ingot::chat::jinja {
namespace {

Value string_value(std::string s) {
  return Value::string(std::move(s));
}

std::optional<int64_t> parse_python_int(const std::string& text) {
  std::string s = py::strip(text, std::nullopt, true, true);
  size_t i = 0;
  bool negative = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
  if (i >= s.size()) return std::nullopt;
  int64_t value = 0;
  bool last_underscore = true;
  for (; i < s.size(); ++i) {
    if (s[i] == '_' && !last_underscore) {
      last_underscore = true;
      continue;
    }
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return std::nullopt;
    if (__builtin_mul_overflow(value, 10, &value) ||
        __builtin_add_overflow(value, s[i] - '0', &value)) {
      return std::nullopt;
    }
    last_underscore = false;
  }
  if (last_underscore) return std::nullopt;
  return negative ? -value : value;
}

std::optional<double> parse_python_float(const std::string& text) {
  std::string s = py::strip(text, std::nullopt, true, true);
  std::erase(s, '_');
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  double value = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size()) return std::nullopt;
  if (s.find_first_of("xXpP") != std::string::npos) return std::nullopt;  // no hex floats
  return value;
}

// Markup's own string methods return Markup, so filters built on them keep
// the mark.
Value same_kind(const Value& input, std::string text) {
  return input.is_markup() ? Value::markup(std::move(text)) : Value::string(std::move(text));
}

Value f_abs(Interpreter&, const Value& input, CallArgs& args) {
  ArgReader(args, "abs", {});
  if (input.is_float()) return Value::number(std::fabs(input.as_float()));
  if (input.is_integral()) {
    if (input.integral() == INT64_MIN) throw_render_error("integer result too large");
    return Value::integer(std::llabs(input.integral()));
  }
  if (input.is_undefined()) throw_render_error(input.undefined_hint());
  throw_render_error("bad operand type for abs(): '" + input.type_name() + "'");
}

Value f_attr(Interpreter&, const Value& input, CallArgs& args) {
  ArgReader reader(args, "attr", {"name"}, 1);
  std::optional<std::string> name = reader.get_string(0);
  if (!name) throw_render_error("attribute name must be a string");
  // Python's getattr only: unlike `x.name`, no fallback to x[name].
  if (input.is_undefined()) throw_render_error(input.undefined_hint());
  if (std::optional<Value> method = find_method(input, *name)) return *method;
  if (input.is_object()) {
    if (std::optional<Value> value = input.as_object().attribute(*name)) return *value;
  }
  return Value::undefined(
      str_cat("'", input.type_name(), " object' has no attribute '", *name, "'"));
}

Value f_capitalize(Interpreter&, const Value& input, CallArgs& args) {
  ArgReader(args, "capitalize", {});
  return same_kind(input, py::capitalize(to_str(input)));
}

// str.center: the extra space goes left when both the padding and the
// width are odd, as CPython does it.
Value f_center(Interpreter&, const Value& input, CallArgs& args) {
  ArgReader reader(args, "center", {"width"});
  std::string text = to_str(input);
  int64_t width = std::min<int64_t>(reader.get_int(0, 80), 1 << 20);
  auto length = static_cast<int64_t>(py::length(text));
  if (width <= length) return string_value(std::move(text));
  int64_t margin = width - length;
  int64_t left = margin / 2 + (margin & width & 1);
  return string_value(std::string(static_cast<size_t>(left), ' ') + text +
                      std::string(static_cast<size_t>(margin - left), ' '));
}

Value f_default(Interpreter&, const Value& input, CallArgs& args) {
  ArgReader reader(args, "default", {"default_value", "boolean"});
  bool boolean = reader.get_bool(1, false);
  if (input.is_undefined() || (boolean && !input.truthy())) {
    return reader.get_or(0, Value::string(""));
  }
  return input;
}

Value f_escape(Interpreter&, const Value& input, CallArgs& args) {
  ArgReader(args, "escape", {});
  if (input.is_markup()) return input;
  return Value::markup(html_escape(to_str(input)));
}

Value f_forceescape(Interpreter&, const Value& input, CallArgs& args) {
  ArgReader(args, "forceescape", {});
  return Value::markup(html_escape(to_str(input)));
}

Value f_float(Interpreter&, const Value& input, CallArgs& args) {
  ArgReader reader(args, "float", {"default"});
  Value fallback = reader.get_or(0, Value::number(0.0));
  if (input.is_undefined()) throw_render_error(input.undefined_hint());
  if (input.is_number()) return Value::number(input.to_double());
  if (input.is_string()) {
    if (std::optional<double> parsed = parse_python_float(input.as_string()))
      return Value::number(*parsed);
  }
  return fallback;
}

Value f_int(Interpreter&, const Value& input, CallArgs& args) {
  ArgReader reader(args, "int", {"default", "base"});
  Value fallback = reader.get_or(0, Value::integer(0));
  if (input.is_undefined()) throw_render_error(input.undefined_hint());
  if (input.is_integral()) return Value::integer(input.integral());
  if (input.is_float()) {
    double f = input.as_float();
    if (std::isnan(f) || std::isinf(f) || std::fabs(f) >= 9.2e18)
      throw_render_error("cannot convert float to integer");
    return Value::integer(static_cast<int64_t>(f));
  }
  if (input.is_string()) {
    if (std::optional<int64_t> parsed = parse_python_int(input.as_string()))
      return Value::integer(*parsed);
    std::optional<double> f = parse_python_float(input.as_string());
    if (f && std::isfinite(*f) && std::fabs(*f) < 9.2e18)
      return Value::integer(static_cast<int64_t>(*f));
  }
  return fallback;
}

Value f_format(Interpreter&, const Value& input, CallArgs& args) {
  if (!args.keyword.empty()) {
    auto dict = std::make_shared<Dict>();
    for (auto& [key, value] : args.keyword) dict->set(key, value);
    return string_value(percent_format(to_str(input), Value::dict(dict)));
  }
  return string_value(percent_format(to_str(input), Value::list(args.positional, true)));
}

Value f_indent(Interpreter&, const Value& input, CallArgs& args) {
  ArgReader reader(args, "indent", {"width", "first", "blank"});
  if (!input.is_string()) {
    if (input.is_undefined()) throw_render_error(input.undefined_hint());
    throw_render_error("unsupported operand type(s) for +=: '" + input.type_name() + "' and 'str'");
  }
  Value width = reader.get_or(0, Value::integer(4));
  std::string indention =
      width.is_string()
          ? width.as_string()
          : std::string(static_cast<size_t>(std::clamp<int64_t>(width.integral(), 0, 1000)), ' ');
  // Like Jinja2, append a newline first so that splitlines() keeps a
  // trailing empty line.
  std::vector<std::string> lines = py::splitlines(input.as_string() + "\n");
  std::string out;
  if (reader.get_bool(2, false)) {
    for (size_t i = 0; i < lines.size(); ++i) {
      if (i > 0) out += "\n" + indention;
      out += lines[i];
    }
  } else {
    out = lines.empty() ? "" : lines[0];
    for (size_t i = 1; i < lines.size(); ++i) {
      out += "\n";
      if (!lines[i].empty()) out += indention + lines[i];
    }
  }
  if (reader.get_bool(1, false)) out = indention + out;
  return string_value(std::move(out));
}

Value f_lower(Interpreter&, const Value& input, CallArgs& args) {
  ArgReader(args, "lower", {});
  return same_kind(input, py::lower(to_str(input)));
}

Value f_upper(Interpreter&, const Value& input, CallArgs& args) {
  ArgReader(args, "upper", {});
  return same_kind(input, py::upper(to_str(input)));
}

Value f_replace(Interpreter&, const Value& input, CallArgs& args) {
  ArgReader reader(args, "replace", {"old", "new", "count"}, 2);
  int64_t count = reader.has(2) && !reader.get(2).is_none() ? reader.get_int(2, -1) : -1;
  return string_value(
      py::replace(to_str(input), to_str(reader.get(0)), to_str(reader.get(1)), count));
}

Value f_round(Interpreter&, const Value& input, CallArgs& args) {
  ArgReader reader(args, "round", {"precision", "method"});
  int64_t precision = std::clamp<int64_t>(reader.get_int(0, 0), -300, 300);
  std::string method = reader.get_string(1).value_or("common");
  if (method != "common" && method != "ceil" && method != "floor") {
    throw_render_error("method must be common, ceil or floor");
  }
  if (!input.is_number())
    throw_render_error("type " + input.type_name() + " doesn't define __round__ method");
  if (method == "common") {
    // Python's round(): ints stay ints; floats round half to even on the
    // exact binary value, which printf's correctly rounded %.*f matches.
    if (input.is_integral() && precision >= 0) return Value::integer(input.integral());
    if (precision < 0) {
      double scale = std::pow(10.0, static_cast<double>(-precision));
      double r = std::nearbyint(input.to_double() / scale) * scale;
      return input.is_integral() ? Value::integer(static_cast<int64_t>(r)) : Value::number(r);
    }
    char buf[512];
    std::snprintf(buf, sizeof buf, "%.*f", static_cast<int>(precision), input.as_float());
    return Value::number(std::strtod(buf, nullptr));
  }
  double scale = std::pow(10.0, static_cast<double>(precision));
  double scaled = input.to_double() * scale;
  return Value::number((method == "ceil" ? std::ceil(scaled) : std::floor(scaled)) / scale);
}

Value f_safe(Interpreter&, const Value& input, CallArgs& args) {
  ArgReader(args, "safe", {});
  return input.is_markup() ? input : Value::markup(to_str(input));
}

Value f_string(Interpreter&, const Value& input, CallArgs& args) {
  ArgReader(args, "string", {});
  return input.is_string() ? input : string_value(to_str(input));
}

// Jinja2's title filter: words start after '-', whitespace or an opening
// bracket, unlike str.title().
Value f_title(Interpreter&, const Value& input, CallArgs& args) {
  ArgReader(args, "title", {});
  std::u32string cps = py::decode(to_str(input));
  auto is_boundary = [](char32_t c) {
    return c == '-' || c == '(' || c == '{' || c == '[' || c == '<' || py::is_space(c);
  };
  std::string out;
  size_t i = 0;
  while (i < cps.size()) {
    size_t start = i;
    bool boundary = is_boundary(cps[i]);
    while (i < cps.size() && is_boundary(cps[i]) == boundary) ++i;
    std::u32string_view part(cps.data() + start, i - start);
    if (boundary) {
      out += py::encode(part);
    } else {
      out += py::upper(py::encode(part.substr(0, 1))) + py::lower(py::encode(part.substr(1)));
    }
  }
  return string_value(std::move(out));
}

// transformers' tojson: json.dumps(x, ensure_ascii=False, indent=indent,
// separators=separators, sort_keys=sort_keys).
Value f_tojson(Interpreter&, const Value& input, CallArgs& args) {
  ArgReader reader(args, "tojson", {"ensure_ascii", "indent", "separators", "sort_keys"});
  JsonDumpOptions options;
  options.ensure_ascii = reader.get_bool(0, false);
  options.sort_keys = reader.get_bool(3, false);
  Value indent = reader.get(1);
  if (indent.is_string()) {
    options.indent = indent.as_string();
  } else if (indent.is_integral()) {
    options.indent =
        std::string(static_cast<size_t>(std::clamp<int64_t>(indent.integral(), 0, 1000)), ' ');
  } else if (!indent.is_undefined() && !indent.is_none()) {
    throw_render_error("tojson: indent must be an integer or a string");
  }
  if (options.indent) options.item_separator = std::string(",");
  Value separators = reader.get(2);
  if (separators.is_list()) {
    const auto& parts = separators.as_list().items;
    if (parts.size() != 2 || !parts[0].is_string() || !parts[1].is_string()) {
      throw_render_error("tojson: separators must be two strings");
    }
    options.item_separator = parts[0].as_string();
    options.key_separator = parts[1].as_string();
  }
  return string_value(dump_json(input, options));
}

Value f_trim(Interpreter&, const Value& input, CallArgs& args) {
  ArgReader reader(args, "trim", {"chars"});
  return same_kind(input, py::strip(to_str(input), reader.get_string(0), true, true));
}

Value f_wordcount(Interpreter&, const Value& input, CallArgs& args) {
  ArgReader(args, "wordcount", {});
  int64_t words = 0;
  bool in_word = false;
  for (char32_t c : py::decode(to_str(input))) {
    bool word_char = c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
                     (c >= 'A' && c <= 'Z') || (c >= 0x80 && !py::is_space(c));
    if (word_char && !in_word) ++words;
    in_word = word_char;
  }
  return Value::integer(words);
}

constexpr std::array kTextFilters = {
    FilterEntry{"abs", f_abs},
    FilterEntry{"attr", f_attr},
    FilterEntry{"capitalize", f_capitalize},
    FilterEntry{"center", f_center},
    FilterEntry{"d", f_default},
    FilterEntry{"default", f_default},
    FilterEntry{"e", f_escape},
    FilterEntry{"escape", f_escape},
    FilterEntry{"float", f_float},
    FilterEntry{"forceescape", f_forceescape},
    FilterEntry{"format", f_format},
    FilterEntry{"indent", f_indent},
    FilterEntry{"int", f_int},
    FilterEntry{"lower", f_lower},
    FilterEntry{"replace", f_replace},
    FilterEntry{"round", f_round},
    FilterEntry{"safe", f_safe},
    FilterEntry{"string", f_string},
    FilterEntry{"title", f_title},
    FilterEntry{"tojson", f_tojson},
    FilterEntry{"trim", f_trim},
    FilterEntry{"upper", f_upper},
    FilterEntry{"wordcount", f_wordcount},
};

// Jinja2 filters ingot does not implement; templates naming them still parse.
constexpr std::array<std::string_view, 12> kUnimplementedFilters = {
    "batch",     "filesizeformat", "groupby",   "pprint", "random",   "slice",
    "striptags", "truncate",       "urlencode", "urlize", "wordwrap", "xmlattr"};

}  // namespace

FilterFn find_filter(std::string_view name) {
  for (std::span<const FilterEntry> table :
       {std::span<const FilterEntry>(kTextFilters), sequence_filters()}) {
    for (const FilterEntry& entry : table) {
      if (entry.name == name) return entry.fn;
    }
  }
  return nullptr;
}

bool is_known_filter(std::string_view name) {
  return find_filter(name) != nullptr ||
         std::find(kUnimplementedFilters.begin(), kUnimplementedFilters.end(), name) !=
             kUnimplementedFilters.end();
}

}  // namespace ingot::chat::jinja
