#include "chat/jinja/methods.h"

#include <algorithm>
#include <array>

#include "chat/jinja/call_args.h"
#include "chat/jinja/errors.h"
#include "chat/jinja/objects.h"
#include "chat/jinja/py_string.h"
#include "chat/jinja/value_format.h"

namespace ingot::chat::jinja {
namespace {

using Method = Value (*)(const Value& self, const CallArgs& args);

Value string_list(std::vector<std::string> parts) {
  std::vector<Value> items;
  items.reserve(parts.size());
  for (std::string& part : parts) items.push_back(Value::string(std::move(part)));
  return Value::list(std::move(items));
}

const std::string& self_string(const Value& self) {
  return self.as_string();
}

Value str_strip_impl(const Value& self, const CallArgs& args, const char* name, bool left,
                     bool right) {
  ArgReader reader(args, name, {"chars"});
  return Value::string(py::strip(self_string(self), reader.get_string(0), left, right));
}
Value str_strip(const Value& self, const CallArgs& args) {
  return str_strip_impl(self, args, "strip", true, true);
}
Value str_lstrip(const Value& self, const CallArgs& args) {
  return str_strip_impl(self, args, "lstrip", true, false);
}
Value str_rstrip(const Value& self, const CallArgs& args) {
  return str_strip_impl(self, args, "rstrip", false, true);
}

Value str_split_impl(const Value& self, const CallArgs& args, bool from_right) {
  ArgReader reader(args, from_right ? "rsplit" : "split", {"sep", "maxsplit"});
  std::optional<std::string> sep = reader.get_string(0);
  if (sep && sep->empty()) throw_render_error("empty separator");
  int64_t maxsplit = reader.get_int(1, -1);
  return string_list(from_right ? py::rsplit(self_string(self), sep, maxsplit)
                                : py::split(self_string(self), sep, maxsplit));
}
Value str_split(const Value& self, const CallArgs& args) {
  return str_split_impl(self, args, false);
}
Value str_rsplit(const Value& self, const CallArgs& args) {
  return str_split_impl(self, args, true);
}

Value str_splitlines(const Value& self, const CallArgs& args) {
  ArgReader reader(args, "splitlines", {"keepends"});
  return string_list(py::splitlines(self_string(self)));
}

// startswith/endswith take a string or a tuple of strings.
Value str_affix(const Value& self, const CallArgs& args, bool at_start) {
  ArgReader reader(args, at_start ? "startswith" : "endswith", {"prefix"}, 1);
  Value affix = reader.get(0);
  std::vector<Value> options = affix.is_tuple() ? affix.as_list().items : std::vector<Value>{affix};
  const std::string& text = self_string(self);
  for (const Value& option : options) {
    if (!option.is_string()) {
      throw_render_error(std::string(at_start ? "startswith" : "endswith") +
                         " first arg must be str or a tuple of str");
    }
    const std::string& s = option.as_string();
    bool hit = at_start ? text.starts_with(s) : text.ends_with(s);
    if (hit) return Value::boolean(true);
  }
  return Value::boolean(false);
}
Value str_startswith(const Value& self, const CallArgs& args) {
  return str_affix(self, args, true);
}
Value str_endswith(const Value& self, const CallArgs& args) {
  return str_affix(self, args, false);
}

Value str_upper(const Value& self, const CallArgs& args) {
  ArgReader(args, "upper", {});
  return Value::string(py::upper(self_string(self)));
}
Value str_lower(const Value& self, const CallArgs& args) {
  ArgReader(args, "lower", {});
  return Value::string(py::lower(self_string(self)));
}
Value str_title(const Value& self, const CallArgs& args) {
  ArgReader(args, "title", {});
  return Value::string(py::title(self_string(self)));
}
Value str_capitalize(const Value& self, const CallArgs& args) {
  ArgReader(args, "capitalize", {});
  return Value::string(py::capitalize(self_string(self)));
}

Value str_replace(const Value& self, const CallArgs& args) {
  ArgReader reader(args, "replace", {"old", "new", "count"}, 2);
  std::optional<std::string> old_text = reader.get_string(0);
  std::optional<std::string> new_text = reader.get_string(1);
  if (!old_text || !new_text) throw_render_error("replace() arguments must be str");
  return Value::string(py::replace(self_string(self), *old_text, *new_text, reader.get_int(2, -1)));
}

Value str_count(const Value& self, const CallArgs& args) {
  ArgReader reader(args, "count", {"sub"}, 1);
  std::optional<std::string> sub = reader.get_string(0);
  if (!sub) throw_render_error("count() argument must be str");
  return Value::integer(py::count(self_string(self), *sub));
}

Value str_find(const Value& self, const CallArgs& args) {
  ArgReader reader(args, "find", {"sub"}, 1);
  std::optional<std::string> sub = reader.get_string(0);
  if (!sub) throw_render_error("find() argument must be str");
  return Value::integer(py::find(self_string(self), *sub));
}

Value str_join(const Value& self, const CallArgs& args) {
  ArgReader reader(args, "join", {"iterable"}, 1);
  std::string out;
  bool first = true;
  for (const Value& item : iterate(reader.get(0))) {
    if (!item.is_string()) {
      throw_render_error("sequence item: expected str instance, " + item.type_name() + " found");
    }
    if (!first) out += self_string(self);
    first = false;
    out += item.as_string();
  }
  return Value::string(std::move(out));
}

Value str_format(const Value& self, const CallArgs& args) {
  return Value::string(python_str_format(self_string(self), args));
}

Value str_removeprefix(const Value& self, const CallArgs& args) {
  ArgReader reader(args, "removeprefix", {"prefix"}, 1);
  std::string text = self_string(self);
  std::optional<std::string> prefix = reader.get_string(0);
  if (prefix && text.starts_with(*prefix)) text.erase(0, prefix->size());
  return Value::string(std::move(text));
}

Value str_removesuffix(const Value& self, const CallArgs& args) {
  ArgReader reader(args, "removesuffix", {"suffix"}, 1);
  std::string text = self_string(self);
  std::optional<std::string> suffix = reader.get_string(0);
  if (suffix && !suffix->empty() && text.ends_with(*suffix))
    text.resize(text.size() - suffix->size());
  return Value::string(std::move(text));
}

template <bool (*Predicate)(char32_t)>
Value str_is(const Value& self, const CallArgs&) {
  std::u32string cps = py::decode(self_string(self));
  if (cps.empty()) return Value::boolean(false);
  return Value::boolean(std::all_of(cps.begin(), cps.end(), Predicate));
}
bool is_digit(char32_t c) {
  return c >= '0' && c <= '9';
}
bool is_alpha(char32_t c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0xC0;
}
bool is_alnum(char32_t c) {
  return is_digit(c) || is_alpha(c);
}

Value dict_view(std::vector<Value> items, std::string_view name) {
  Value view = Value::list(std::move(items));
  view.as_list().view_name = name;
  return view;
}

Value dict_keys(const Value& self, const CallArgs& args) {
  ArgReader(args, "keys", {});
  std::vector<Value> keys;
  for (const auto& [key, _] : self.as_dict().items) keys.push_back(key);
  return dict_view(std::move(keys), "dict_keys");
}

Value dict_values(const Value& self, const CallArgs& args) {
  ArgReader(args, "values", {});
  std::vector<Value> values;
  for (const auto& [_, value] : self.as_dict().items) values.push_back(value);
  return dict_view(std::move(values), "dict_values");
}

Value dict_items(const Value& self, const CallArgs& args) {
  ArgReader(args, "items", {});
  std::vector<Value> items;
  for (const auto& [key, value] : self.as_dict().items) {
    items.push_back(Value::list({key, value}, true));
  }
  return dict_view(std::move(items), "dict_items");
}

Value dict_get(const Value& self, const CallArgs& args) {
  ArgReader reader(args, "get", {"key", "default"}, 1);
  Value key = reader.get(0);
  if (const Value* value = self.as_dict().find(key)) return *value;
  return reader.get_or(1, Value::none());
}

Value copy_container(const Value& self, const CallArgs& args) {
  ArgReader(args, "copy", {});
  if (self.is_dict()) return Value::dict(std::make_shared<Dict>(self.as_dict()));
  return Value::list(self.as_list().items, self.is_tuple());
}

Value list_count(const Value& self, const CallArgs& args) {
  ArgReader reader(args, "count", {"value"}, 1);
  int64_t n = 0;
  for (const Value& item : self.as_list().items) n += values_equal(item, reader.get(0)) ? 1 : 0;
  return Value::integer(n);
}

Value list_index(const Value& self, const CallArgs& args) {
  ArgReader reader(args, "index", {"value"}, 1);
  const auto& items = self.as_list().items;
  for (size_t i = 0; i < items.size(); ++i) {
    if (values_equal(items[i], reader.get(0))) return Value::integer(static_cast<int64_t>(i));
  }
  throw_render_error(to_repr(reader.get(0)) + " is not in list");
}

struct MethodEntry {
  std::string_view name;
  Method fn;
};

constexpr std::array kStringMethods = {
    MethodEntry{"strip", str_strip},
    MethodEntry{"lstrip", str_lstrip},
    MethodEntry{"rstrip", str_rstrip},
    MethodEntry{"split", str_split},
    MethodEntry{"rsplit", str_rsplit},
    MethodEntry{"splitlines", str_splitlines},
    MethodEntry{"startswith", str_startswith},
    MethodEntry{"endswith", str_endswith},
    MethodEntry{"upper", str_upper},
    MethodEntry{"lower", str_lower},
    MethodEntry{"title", str_title},
    MethodEntry{"capitalize", str_capitalize},
    MethodEntry{"replace", str_replace},
    MethodEntry{"count", str_count},
    MethodEntry{"find", str_find},
    MethodEntry{"join", str_join},
    MethodEntry{"format", str_format},
    MethodEntry{"removeprefix", str_removeprefix},
    MethodEntry{"removesuffix", str_removesuffix},
    MethodEntry{"isdigit", str_is<is_digit>},
    MethodEntry{"isalpha", str_is<is_alpha>},
    MethodEntry{"isalnum", str_is<is_alnum>},
    MethodEntry{"isspace", str_is<py::is_space>},
};

constexpr std::array kDictMethods = {
    MethodEntry{"keys", dict_keys},      MethodEntry{"values", dict_values},
    MethodEntry{"items", dict_items},    MethodEntry{"get", dict_get},
    MethodEntry{"copy", copy_container},
};

constexpr std::array kListMethods = {
    MethodEntry{"count", list_count},
    MethodEntry{"index", list_index},
    MethodEntry{"copy", copy_container},
};

constexpr std::array<std::string_view, 5> kUnsafeDictMethods = {"pop", "popitem", "update", "clear",
                                                                "setdefault"};
constexpr std::array<std::string_view, 8> kUnsafeListMethods = {
    "append", "extend", "insert", "pop", "remove", "reverse", "sort", "clear"};

template <typename Table>
std::optional<Value> bind(const Table& table, const Value& self, const std::string& name) {
  for (const MethodEntry& entry : table) {
    if (entry.name != name) continue;
    Method fn = entry.fn;
    return make_function(name, [self, fn](Interpreter&, CallArgs& args) { return fn(self, args); });
  }
  return std::nullopt;
}

template <typename Names>
std::optional<Value> refuse_unsafe(const Names& names, const Value& self, const std::string& name) {
  if (std::find(names.begin(), names.end(), name) == names.end()) return std::nullopt;
  return Value::undefined("access to attribute '" + name + "' of '" + self.type_name() +
                          "' object is unsafe.");
}

}  // namespace

std::optional<Value> find_method(const Value& object, const std::string& name) {
  if (object.is_string()) return bind(kStringMethods, object, name);
  if (object.is_dict()) {
    if (auto unsafe = refuse_unsafe(kUnsafeDictMethods, object, name)) return unsafe;
    return bind(kDictMethods, object, name);
  }
  if (object.is_list()) {
    if (auto unsafe = refuse_unsafe(kUnsafeListMethods, object, name)) return unsafe;
    return bind(kListMethods, object, name);
  }
  return std::nullopt;
}

}  // namespace ingot::chat::jinja
