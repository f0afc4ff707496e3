#include "chat/jinja/filters.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "chat/jinja/call_args.h"
#include "chat/jinja/errors.h"
#include "chat/jinja/interpreter.h"
#include "chat/jinja/json_convert.h"
#include "chat/jinja/methods.h"
#include "chat/jinja/operators.h"
#include "chat/jinja/py_string.h"
#include "chat/jinja/value_format.h"

namespace ingot::chat::jinja {
namespace {

// ---- helpers ----

// What Jinja2's generator-returning filters (map, select, unique, ...) give.
Value generator(std::vector<Value> items) {
  Value value = Value::list(std::move(items));
  value.as_list().is_iterator = true;
  return value;
}

bool is_iterator(const Value& value) {
  return value.is_list() && value.as_list().is_iterator;
}

Value string_value(std::string s) {
  return Value::string(std::move(s));
}

// A sort key: strings lower-cased unless case_sensitive (Jinja's ignore_case).
Value sort_key(const Value& value, bool case_sensitive) {
  if (!case_sensitive && value.is_string()) return Value::string(py::lower(value.as_string()));
  return value;
}

std::vector<Value> keyed_items(const std::vector<Value>& items, const Value& attribute,
                               bool case_sensitive) {
  std::vector<Value> keys;
  keys.reserve(items.size());
  for (const Value& item : items) {
    Value key = attribute.is_string() ? lookup_attribute_path(item, attribute.as_string()) : item;
    keys.push_back(sort_key(key, case_sensitive));
  }
  return keys;
}

// Sorts `items` by `keys` (stable, like Python's sorted).
std::vector<Value> sorted_by(const std::vector<Value>& items, const std::vector<Value>& keys,
                             bool reverse) {
  std::vector<size_t> order(items.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return reverse ? less_than(keys[b], keys[a]) : less_than(keys[a], keys[b]);
  });
  std::vector<Value> out;
  out.reserve(items.size());
  for (size_t i : order) out.push_back(items[i]);
  return out;
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

// ---- filters ----

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

Value f_dictsort(Interpreter&, const Value& input, CallArgs& args) {
  ArgReader reader(args, "dictsort", {"case_sensitive", "by", "reverse"});
  if (!input.is_dict()) throw_render_error("dictsort expects a mapping, got " + input.type_name());
  bool case_sensitive = reader.get_bool(0, false);
  std::string by = reader.get_string(1).value_or("key");
  if (by != "key" && by != "value")
    throw_render_error("You can only sort by either \"key\" or \"value\"");
  std::vector<Value> pairs;
  std::vector<Value> keys;
  for (const auto& [key, value] : input.as_dict().items) {
    pairs.push_back(Value::list({key, value}, true));
    keys.push_back(sort_key(by == "key" ? key : value, case_sensitive));
  }
  return Value::list(sorted_by(pairs, keys, reader.get_bool(2, false)));
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

Value f_first(Interpreter&, const Value& input, CallArgs& args) {
  ArgReader(args, "first", {});
  std::vector<Value> items = iterate(input);
  if (items.empty()) return Value::undefined("No first item, sequence was empty.");
  return items.front();
}

Value f_last(Interpreter&, const Value& input, CallArgs& args) {
  ArgReader(args, "last", {});
  if (is_iterator(input)) throw_render_error("'generator' object is not reversible");
  std::vector<Value> items = iterate(input);
  if (items.empty()) return Value::undefined("No last item, sequence was empty.");
  return items.back();
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

Value f_items(Interpreter&, const Value& input, CallArgs& args) {
  ArgReader(args, "items", {});
  if (input.is_undefined()) return generator({});
  if (!input.is_dict()) throw_render_error("Can only get item pairs from a mapping.");
  std::vector<Value> pairs;
  for (const auto& [key, value] : input.as_dict().items) {
    pairs.push_back(Value::list({key, value}, true));
  }
  return generator(std::move(pairs));
}

Value f_join(Interpreter&, const Value& input, CallArgs& args) {
  ArgReader reader(args, "join", {"d", "attribute"});
  std::string separator = to_str(reader.get_or(0, Value::string("")));
  Value attribute = reader.get(1);
  std::string out;
  bool first = true;
  for (const Value& item : iterate(input)) {
    if (!first) out += separator;
    first = false;
    append_str(out,
               attribute.is_string() ? lookup_attribute_path(item, attribute.as_string()) : item);
  }
  return string_value(std::move(out));
}

Value f_length(Interpreter&, const Value& input, CallArgs& args) {
  ArgReader(args, "length", {});
  if (input.is_undefined()) return Value::integer(0);
  if (is_iterator(input)) throw_render_error("object of type 'generator' has no len()");
  if (input.is_string()) return Value::integer(static_cast<int64_t>(py::length(input.as_string())));
  if (input.is_list()) return Value::integer(static_cast<int64_t>(input.as_list().items.size()));
  if (input.is_dict()) return Value::integer(static_cast<int64_t>(input.as_dict().items.size()));
  throw_render_error("object of type '" + input.type_name() + "' has no len()");
}

Value f_list(Interpreter&, const Value& input, CallArgs& args) {
  ArgReader(args, "list", {});
  return Value::list(iterate(input));
}

Value f_lower(Interpreter&, const Value& input, CallArgs& args) {
  ArgReader(args, "lower", {});
  return same_kind(input, py::lower(to_str(input)));
}

Value f_upper(Interpreter&, const Value& input, CallArgs& args) {
  ArgReader(args, "upper", {});
  return same_kind(input, py::upper(to_str(input)));
}

Value f_map(Interpreter& interpreter, const Value& input, CallArgs& args) {
  // Jinja2 maps only a truthy input; None maps to nothing.
  std::vector<Value> items = input.truthy() ? iterate(input) : std::vector<Value>{};
  std::vector<Value> out;
  bool by_attribute = args.positional.empty();
  if (by_attribute) {
    ArgReader reader(args, "map", {"attribute", "default"});
    std::optional<std::string> attribute = reader.get_string(0);
    if (!attribute) throw_render_error("map requires a filter argument");
    Value fallback = reader.get(1);
    for (const Value& item : items) {
      Value value = lookup_attribute_path(item, *attribute);
      if (value.is_undefined() && reader.has(1)) value = fallback;
      out.push_back(std::move(value));
    }
    return generator(std::move(out));
  }
  if (!args.positional[0].is_string()) throw_render_error("map: filter name must be a string");
  std::string filter = args.positional[0].as_string();
  CallArgs rest;
  rest.positional.assign(args.positional.begin() + 1, args.positional.end());
  rest.keyword = args.keyword;
  for (const Value& item : items) {
    CallArgs call = rest;
    out.push_back(interpreter.apply_filter(filter, item, call));
  }
  return generator(std::move(out));
}

Value min_or_max(const Value& input, CallArgs& args, bool want_max) {
  ArgReader reader(args, want_max ? "max" : "min", {"case_sensitive", "attribute"});
  std::vector<Value> items = iterate(input);
  if (items.empty()) return Value::undefined("No aggregated item, sequence was empty.");
  std::vector<Value> keys = keyed_items(items, reader.get(1), reader.get_bool(0, false));
  size_t best = 0;
  for (size_t i = 1; i < items.size(); ++i) {
    if (want_max ? less_than(keys[best], keys[i]) : less_than(keys[i], keys[best])) best = i;
  }
  return items[best];
}
Value f_max(Interpreter&, const Value& input, CallArgs& args) {
  return min_or_max(input, args, true);
}
Value f_min(Interpreter&, const Value& input, CallArgs& args) {
  return min_or_max(input, args, false);
}

// select/reject/selectattr/rejectattr share one shape: an optional
// attribute, an optional test name with arguments, and a polarity.
Value select_items(Interpreter& interpreter, const Value& input, CallArgs& args, bool by_attribute,
                   bool keep_matching) {
  std::vector<Value> positional = args.positional;
  std::optional<std::string> attribute;
  if (by_attribute) {
    if (positional.empty() || !positional[0].is_string())
      throw_render_error("Missing parameter for attribute name");
    attribute = positional[0].as_string();
    positional.erase(positional.begin());
  }
  std::optional<std::string> test;
  if (!positional.empty()) {
    if (!positional[0].is_string()) throw_render_error("test name must be a string");
    test = positional[0].as_string();
    positional.erase(positional.begin());
  }
  std::vector<Value> out;
  // Like Jinja2, a falsy input (None, an empty list) selects nothing.
  std::vector<Value> items = input.truthy() ? iterate(input) : std::vector<Value>{};
  for (const Value& item : items) {
    Value subject = attribute ? lookup_attribute_path(item, *attribute) : item;
    bool matches;
    if (test) {
      CallArgs call{positional, args.keyword};
      matches = interpreter.apply_test(*test, subject, call);
    } else {
      matches = subject.truthy();
    }
    if (matches == keep_matching) out.push_back(item);
  }
  return generator(std::move(out));
}
Value f_select(Interpreter& in, const Value& v, CallArgs& a) {
  return select_items(in, v, a, false, true);
}
Value f_reject(Interpreter& in, const Value& v, CallArgs& a) {
  return select_items(in, v, a, false, false);
}
Value f_selectattr(Interpreter& in, const Value& v, CallArgs& a) {
  return select_items(in, v, a, true, true);
}
Value f_rejectattr(Interpreter& in, const Value& v, CallArgs& a) {
  return select_items(in, v, a, true, false);
}

Value f_replace(Interpreter&, const Value& input, CallArgs& args) {
  ArgReader reader(args, "replace", {"old", "new", "count"}, 2);
  int64_t count = reader.has(2) && !reader.get(2).is_none() ? reader.get_int(2, -1) : -1;
  return string_value(
      py::replace(to_str(input), to_str(reader.get(0)), to_str(reader.get(1)), count));
}

Value f_reverse(Interpreter&, const Value& input, CallArgs& args) {
  ArgReader(args, "reverse", {});
  if (input.is_string()) {
    std::u32string cps = py::decode(input.as_string());
    std::reverse(cps.begin(), cps.end());
    return string_value(py::encode(cps));
  }
  if (is_iterator(input)) throw_render_error("'generator' object is not reversible");
  std::vector<Value> items = iterate(input);
  std::reverse(items.begin(), items.end());
  return generator(std::move(items));
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

Value f_sort(Interpreter&, const Value& input, CallArgs& args) {
  ArgReader reader(args, "sort", {"reverse", "case_sensitive", "attribute"});
  std::vector<Value> items = iterate(input);
  std::vector<Value> keys = keyed_items(items, reader.get(2), reader.get_bool(1, false));
  return Value::list(sorted_by(items, keys, reader.get_bool(0, false)));
}

Value f_string(Interpreter&, const Value& input, CallArgs& args) {
  ArgReader(args, "string", {});
  return input.is_string() ? input : string_value(to_str(input));
}

Value f_sum(Interpreter& interpreter, const Value& input, CallArgs& args) {
  ArgReader reader(args, "sum", {"attribute", "start"});
  Value total = reader.get_or(1, Value::integer(0));
  Value attribute = reader.get(0);
  for (const Value& item : iterate(input)) {
    Value term = attribute.is_string() ? lookup_attribute_path(item, attribute.as_string()) : item;
    total = binary_op(BinaryOp::kAdd, total, term, interpreter.options().limits.max_output_bytes);
  }
  return total;
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
  if (options.indent) options.item_separator = ",";
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

Value f_unique(Interpreter&, const Value& input, CallArgs& args) {
  ArgReader reader(args, "unique", {"case_sensitive", "attribute"});
  std::vector<Value> items = iterate(input);
  std::vector<Value> keys = keyed_items(items, reader.get(1), reader.get_bool(0, false));
  std::vector<Value> out;
  std::vector<Value> seen;
  for (size_t i = 0; i < items.size(); ++i) {
    bool duplicate = std::any_of(seen.begin(), seen.end(),
                                 [&](const Value& key) { return values_equal(key, keys[i]); });
    if (duplicate) continue;
    seen.push_back(keys[i]);
    out.push_back(items[i]);
  }
  return generator(std::move(out));
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

struct FilterEntry {
  std::string_view name;
  FilterFn fn;
};

constexpr std::array kFilters = {
    FilterEntry{"abs", f_abs},
    FilterEntry{"attr", f_attr},
    FilterEntry{"capitalize", f_capitalize},
    FilterEntry{"center", f_center},
    FilterEntry{"count", f_length},
    FilterEntry{"d", f_default},
    FilterEntry{"default", f_default},
    FilterEntry{"dictsort", f_dictsort},
    FilterEntry{"e", f_escape},
    FilterEntry{"escape", f_escape},
    FilterEntry{"first", f_first},
    FilterEntry{"float", f_float},
    FilterEntry{"forceescape", f_forceescape},
    FilterEntry{"format", f_format},
    FilterEntry{"indent", f_indent},
    FilterEntry{"int", f_int},
    FilterEntry{"items", f_items},
    FilterEntry{"join", f_join},
    FilterEntry{"last", f_last},
    FilterEntry{"length", f_length},
    FilterEntry{"list", f_list},
    FilterEntry{"lower", f_lower},
    FilterEntry{"map", f_map},
    FilterEntry{"max", f_max},
    FilterEntry{"min", f_min},
    FilterEntry{"reject", f_reject},
    FilterEntry{"rejectattr", f_rejectattr},
    FilterEntry{"replace", f_replace},
    FilterEntry{"reverse", f_reverse},
    FilterEntry{"round", f_round},
    FilterEntry{"safe", f_safe},
    FilterEntry{"select", f_select},
    FilterEntry{"selectattr", f_selectattr},
    FilterEntry{"sort", f_sort},
    FilterEntry{"string", f_string},
    FilterEntry{"sum", f_sum},
    FilterEntry{"title", f_title},
    FilterEntry{"tojson", f_tojson},
    FilterEntry{"trim", f_trim},
    FilterEntry{"unique", f_unique},
    FilterEntry{"upper", f_upper},
    FilterEntry{"wordcount", f_wordcount},
};

// Jinja2 filters ingot does not implement; templates naming them still parse.
constexpr std::array<std::string_view, 12> kUnimplementedFilters = {
    "batch",     "filesizeformat", "groupby",   "pprint", "random",   "slice",
    "striptags", "truncate",       "urlencode", "urlize", "wordwrap", "xmlattr"};

}  // namespace

FilterFn find_filter(std::string_view name) {
  for (const FilterEntry& entry : kFilters) {
    if (entry.name == name) return entry.fn;
  }
  return nullptr;
}

bool is_known_filter(std::string_view name) {
  return find_filter(name) != nullptr ||
         std::find(kUnimplementedFilters.begin(), kUnimplementedFilters.end(), name) !=
             kUnimplementedFilters.end();
}

Value lookup_attribute_path(const Value& item, std::string_view attribute) {
  Value current = item;
  size_t start = 0;
  while (true) {
    size_t dot = attribute.find('.', start);
    std::string part(attribute.substr(
        start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
    bool digits = !part.empty() && std::all_of(part.begin(), part.end(), [](char c) {
      return std::isdigit(static_cast<unsigned char>(c));
    });
    current = digits && part.size() < 18 ? get_item(current, Value::integer(std::stoll(part)))
                                         : get_item(current, Value::string(part));
    if (dot == std::string_view::npos) return current;
    start = dot + 1;
  }
}

}  // namespace ingot::chat::jinja
