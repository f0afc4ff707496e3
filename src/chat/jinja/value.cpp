#include "chat/jinja/value.h"

#include "chat/jinja/errors.h"

namespace ingot::chat::jinja {

const Value* Dict::find(std::string_view key) const {
  for (const auto& [k, v] : items) {
    if (k.is_string() && k.as_string() == key) return &v;
  }
  return nullptr;
}

const Value* Dict::find(const Value& key) const {
  if (key.is_string()) return find(std::string_view(key.as_string()));
  for (const auto& [k, v] : items) {
    if (values_equal(k, key)) return &v;
  }
  return nullptr;
}

void Dict::set(Value key, Value value) {
  for (auto& [k, v] : items) {
    if (values_equal(k, key)) {
      v = std::move(value);
      return;
    }
  }
  items.emplace_back(std::move(key), std::move(value));
}

void Dict::set(std::string key, Value value) {
  set(Value::string(std::move(key)), std::move(value));
}

std::optional<Value> Object::attribute(std::string_view) const {
  return std::nullopt;
}

Value Object::call(Interpreter&, CallArgs&) const {
  throw_render_error(str_cat("'", type_name(), "' object is not callable"));
}

std::string Object::repr() const {
  return str_cat("<", type_name(), " object>");
}

Value Value::undefined(std::string hint) {
  return Value(Undefined{std::make_shared<const std::string>(std::move(hint))});
}

Value Value::list(std::vector<Value> items, bool is_tuple) {
  auto list = std::make_shared<List>();
  list->items = std::move(items);
  list->is_tuple = is_tuple;
  return Value(std::move(list));
}

double Value::to_double() const {
  if (is_float()) return as_float();
  return static_cast<double>(integral());
}

const std::string& Value::undefined_hint() const {
  static const std::string kNone = "value is undefined";
  const auto& hint = std::get<0>(data_).hint;
  return hint ? *hint : kNone;
}

bool Value::truthy() const {
  switch (data_.index()) {
    case 0:
      return false;
    case 1:
      return false;
    case 2:
      return as_bool();
    case 3:
      return as_int() != 0;
    case 4:
      return as_float() != 0.0;
    case 5:
      return !as_string().empty();
    case 6:
      return as_list().is_iterator || !as_list().items.empty();
    case 7:
      return !as_dict().items.empty();
    default:
      return true;
  }
}

std::string Value::type_name() const {
  switch (data_.index()) {
    case 0:
      return "Undefined";
    case 1:
      return "NoneType";
    case 2:
      return "bool";
    case 3:
      return "int";
    case 4:
      return "float";
    case 5:
      return "str";
    case 6:
      return as_list().is_iterator ? "generator" : is_tuple() ? "tuple" : "list";
    case 7:
      return "dict";
    default:
      return std::string(as_object().type_name());
  }
}

bool values_equal(const Value& a, const Value& b) {
  if (a.is_undefined() || b.is_undefined()) return a.is_undefined() && b.is_undefined();
  if (a.is_number() && b.is_number()) {
    if (a.is_float() || b.is_float()) return a.to_double() == b.to_double();
    return a.integral() == b.integral();
  }
  if (a.is_none() || b.is_none()) return a.is_none() && b.is_none();
  if (a.is_string() && b.is_string()) return a.as_string() == b.as_string();
  if (a.is_list() && b.is_list()) {
    if (a.is_tuple() != b.is_tuple()) return false;
    if (a.as_list().is_iterator || b.as_list().is_iterator) return a.list_ptr() == b.list_ptr();
    const auto& x = a.as_list().items;
    const auto& y = b.as_list().items;
    if (x.size() != y.size()) return false;
    for (size_t i = 0; i < x.size(); ++i) {
      if (!values_equal(x[i], y[i])) return false;
    }
    return true;
  }
  if (a.is_dict() && b.is_dict()) {
    const auto& x = a.as_dict();
    const auto& y = b.as_dict();
    if (x.items.size() != y.items.size()) return false;
    for (const auto& [k, v] : x.items) {
      const Value* other = y.find(k);
      if (!other || !values_equal(v, *other)) return false;
    }
    return true;
  }
  if (a.is_object() && b.is_object()) return a.object_ptr() == b.object_ptr();
  return false;
}

}  // namespace ingot::chat::jinja
