#include "chat/jinja/json_convert.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "chat/jinja/errors.h"
#include "chat/jinja/value_format.h"
#include "util/json_escape.h"

namespace ingot::chat::jinja {
namespace {

// Deeper JSON than this is refused rather than recursed into.
constexpr int kMaxJsonDepth = 256;

template <typename Json>
Value convert(const Json& json, int depth) {
  if (depth > kMaxJsonDepth) throw_limit_error("JSON input nested too deeply");
  switch (json.type()) {
    case nlohmann::json::value_t::null:
      return Value::none();
    case nlohmann::json::value_t::boolean:
      return Value::boolean(json.template get<bool>());
    case nlohmann::json::value_t::number_integer:
      return Value::integer(json.template get<int64_t>());
    case nlohmann::json::value_t::number_unsigned: {
      auto u = json.template get<uint64_t>();
      if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
        return Value::number(static_cast<double>(u));
      }
      return Value::integer(static_cast<int64_t>(u));
    }
    case nlohmann::json::value_t::number_float:
      return Value::number(json.template get<double>());
    case nlohmann::json::value_t::string:
      return Value::string(json.template get_ref<const std::string&>());
    case nlohmann::json::value_t::array: {
      std::vector<Value> items;
      items.reserve(json.size());
      for (const auto& item : json) items.push_back(convert(item, depth + 1));
      return Value::list(std::move(items));
    }
    case nlohmann::json::value_t::object: {
      auto dict = std::make_shared<Dict>();
      dict->items.reserve(json.size());
      for (auto it = json.begin(); it != json.end(); ++it) {
        dict->items.emplace_back(Value::string(it.key()), convert(it.value(), depth + 1));
      }
      return Value::dict(std::move(dict));
    }
    default:
      return Value::none();
  }
}

void append_json_string(std::string& out, const std::string& text, bool ensure_ascii) {
  out += '"';
  append_json_escaped(out, text, ensure_ascii);
  out += '"';
}

class JsonWriter {
 public:
  JsonWriter(std::string& out, const JsonDumpOptions& options) : out_(out), options_(options) {}

  void write(const Value& value, int depth) {
    if (depth > 512) throw_limit_error("tojson nesting too deep");
    if (value.is_none()) {
      out_ += "null";
    } else if (value.is_bool()) {
      out_ += value.as_bool() ? "true" : "false";
    } else if (value.is_int()) {
      out_ += std::to_string(value.as_int());
    } else if (value.is_float()) {
      write_float(value.as_float());
    } else if (value.is_string()) {
      append_json_string(out_, value.as_string(), options_.ensure_ascii);
    } else if (value.is_list()) {
      write_list(value.as_list(), depth);
    } else if (value.is_dict()) {
      write_dict(value.as_dict(), depth);
    } else {
      throw_render_error("Object of type " + value.type_name() + " is not JSON serializable");
    }
  }

 private:
  void write_float(double f) {
    if (std::isnan(f)) {
      out_ += "NaN";
    } else if (std::isinf(f)) {
      out_ += f > 0 ? "Infinity" : "-Infinity";
    } else {
      out_ += python_float_repr(f);
    }
  }

  void newline(int depth) {
    if (!options_.indent) return;
    out_ += '\n';
    for (int i = 0; i < depth; ++i) out_ += *options_.indent;
  }

  // json.dumps turns non-string keys into strings: 1 -> "1", True -> "true".
  static std::string json_key(const Value& key) {
    if (key.is_string()) return key.as_string();
    if (key.is_bool()) return key.as_bool() ? "true" : "false";
    if (key.is_none()) return "null";
    if (key.is_int()) return std::to_string(key.as_int());
    if (key.is_float()) return python_float_repr(key.as_float());
    throw_render_error("keys must be str, int, float, bool or None, not " + key.type_name());
  }

  void write_list(const List& list, int depth) {
    // A generator (map, select) is written as the list it yields, where
    // Python's json.dumps refuses it: llama.cpp's own templates
    // (llama-cpp-deepseek-r1) pass `tools | map(...)` to tojson, which its
    // template engine allows.
    if (!list.view_name.empty()) {
      throw_render_error(str_cat("Object of type ", list.view_name, " is not JSON serializable"));
    }
    if (list.items.empty()) {
      out_ += "[]";
      return;
    }
    out_ += '[';
    for (size_t i = 0; i < list.items.size(); ++i) {
      if (i > 0) out_ += options_.item_separator;
      newline(depth + 1);
      write(list.items[i], depth + 1);
    }
    newline(depth);
    out_ += ']';
  }

  void write_dict(const Dict& dict, int depth) {
    if (dict.items.empty()) {
      out_ += "{}";
      return;
    }
    std::vector<std::pair<std::string, const Value*>> entries;
    for (const auto& [key, value] : dict.items) entries.emplace_back(json_key(key), &value);
    if (options_.sort_keys) {
      std::stable_sort(entries.begin(), entries.end(),
                       [](const auto& a, const auto& b) { return a.first < b.first; });
    }
    out_ += '{';
    for (size_t i = 0; i < entries.size(); ++i) {
      if (i > 0) out_ += options_.item_separator;
      newline(depth + 1);
      append_json_string(out_, entries[i].first, options_.ensure_ascii);
      out_ += options_.key_separator;
      write(*entries[i].second, depth + 1);
    }
    newline(depth);
    out_ += '}';
  }

  std::string& out_;
  const JsonDumpOptions& options_;
};

}  // namespace

Value value_from_json(const nlohmann::ordered_json& json) {
  return convert(json, 0);
}
Value value_from_json(const nlohmann::json& json) {
  return convert(json, 0);
}

std::string dump_json(const Value& value, const JsonDumpOptions& options) {
  std::string out;
  JsonWriter(out, options).write(value, 0);
  return out;
}

}  // namespace ingot::chat::jinja
