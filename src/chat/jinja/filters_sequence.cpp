#include <algorithm>
#include <array>

#include "chat/jinja/call_args.h"
#include "chat/jinja/errors.h"
#include "chat/jinja/filter_table.h"
#include "chat/jinja/filters.h"
#include "chat/jinja/interpreter.h"
#include "chat/jinja/operators.h"
#include "chat/jinja/py_string.h"
#include "chat/jinja/value_format.h"

// The filters over sequences and mappings: sorting, selecting, mapping,
// joining and reducing.

namespace ingot::chat::jinja {
namespace {

// What Jinja2's generator-returning filters (map, select, unique, ...) give.
Value generator(std::vector<Value> items) {
  Value value = Value::list(std::move(items));
  value.as_list().is_iterator = true;
  return value;
}

bool is_iterator(const Value& value) {
  return value.is_list() && value.as_list().is_iterator;
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
  return Value::string(std::move(out));
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

Value f_reverse(Interpreter&, const Value& input, CallArgs& args) {
  ArgReader(args, "reverse", {});
  if (input.is_string()) {
    std::u32string cps = py::decode(input.as_string());
    std::reverse(cps.begin(), cps.end());
    return Value::string(py::encode(cps));
  }
  if (is_iterator(input)) throw_render_error("'generator' object is not reversible");
  std::vector<Value> items = iterate(input);
  std::reverse(items.begin(), items.end());
  return generator(std::move(items));
}

Value f_sort(Interpreter&, const Value& input, CallArgs& args) {
  ArgReader reader(args, "sort", {"reverse", "case_sensitive", "attribute"});
  std::vector<Value> items = iterate(input);
  std::vector<Value> keys = keyed_items(items, reader.get(2), reader.get_bool(1, false));
  return Value::list(sorted_by(items, keys, reader.get_bool(0, false)));
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

constexpr std::array kSequenceFilters = {
    FilterEntry{"count", f_length},
    FilterEntry{"dictsort", f_dictsort},
    FilterEntry{"first", f_first},
    FilterEntry{"items", f_items},
    FilterEntry{"join", f_join},
    FilterEntry{"last", f_last},
    FilterEntry{"length", f_length},
    FilterEntry{"list", f_list},
    FilterEntry{"map", f_map},
    FilterEntry{"max", f_max},
    FilterEntry{"min", f_min},
    FilterEntry{"reject", f_reject},
    FilterEntry{"rejectattr", f_rejectattr},
    FilterEntry{"reverse", f_reverse},
    FilterEntry{"select", f_select},
    FilterEntry{"selectattr", f_selectattr},
    FilterEntry{"sort", f_sort},
    FilterEntry{"sum", f_sum},
    FilterEntry{"unique", f_unique},
};

}  // namespace

std::span<const FilterEntry> sequence_filters() {
  return kSequenceFilters;
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
