#pragma once
// The values a template computes with. They follow Python's object model as
// far as rendered output depends on it: lists and dicts are shared by
// reference (a namespace attribute or a list seen through two names is one
// object), dicts keep insertion order, and Undefined is Jinja2's default
// Undefined (prints as "", iterates as empty, raises on most other use).

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace ingot::chat::jinja {

class Value;
class Interpreter;
struct CallArgs;

struct List {
  std::vector<Value> items;
  bool is_tuple = false;
  // A generator or iterator (what map, select, unique, ... return in
  // Jinja2): always true, no len(), not JSON-serializable, and iterable
  // only once.
  bool is_iterator = false;
  bool consumed = false;
  // dict.keys()/values()/items() give views: printed as dict_keys([...]),
  // not JSON-serializable, not subscriptable. Empty for plain lists.
  std::string_view view_name;
};

// Keys are strings (JSON, keyword arguments) or, in template literals,
// other hashable values such as ints. Linear lookup: template dicts are small.
struct Dict {
  std::vector<std::pair<Value, Value>> items;

  const Value* find(std::string_view key) const;
  const Value* find(const Value& key) const;
  void set(Value key, Value value);
  void set(std::string key, Value value);
};

// Objects with behaviour of their own: namespaces, the loop variable,
// macros, bound methods and global functions.
class Object {
 public:
  virtual ~Object() = default;
  virtual std::string_view type_name() const = 0;
  // The attribute `name`, or nullopt when the object has none.
  virtual std::optional<Value> attribute(std::string_view name) const;
  virtual bool is_callable() const { return false; }
  virtual Value call(Interpreter& interpreter, CallArgs& args) const;
  // Python's repr(): what printing the object shows.
  virtual std::string repr() const;
};

struct Undefined {
  // What was looked up, for the error raised when the value is misused.
  std::shared_ptr<const std::string> hint;
};

class Value {
 public:
  using StringPtr = std::shared_ptr<const std::string>;
  using ListPtr = std::shared_ptr<List>;
  using DictPtr = std::shared_ptr<Dict>;
  using ObjectPtr = std::shared_ptr<Object>;

  Value() : data_(Undefined{}) {}
  static Value undefined(std::string hint);
  static Value none() { return Value(nullptr); }
  static Value boolean(bool b) { return Value(b); }
  static Value integer(int64_t i) { return Value(i); }
  static Value number(double f) { return Value(f); }
  // Jinja2's Markup: a string marked safe (|safe, |escape); adding a plain
  // string to it HTML-escapes the plain one.
  static Value markup(std::string s) {
    Value value = string(std::move(s));
    value.markup_ = true;
    return value;
  }
  static Value string(std::string s) {
    return Value(std::make_shared<const std::string>(std::move(s)));
  }
  static Value list(std::vector<Value> items = {}, bool is_tuple = false);
  static Value dict(DictPtr dict) { return Value(std::move(dict)); }
  static Value dict() { return Value(std::make_shared<Dict>()); }
  static Value object(ObjectPtr object) { return Value(std::move(object)); }

  bool is_undefined() const { return data_.index() == 0; }
  bool is_none() const { return data_.index() == 1; }
  bool is_bool() const { return data_.index() == 2; }
  bool is_int() const { return data_.index() == 3; }
  bool is_float() const { return data_.index() == 4; }
  bool is_string() const { return data_.index() == 5; }
  bool is_list() const { return data_.index() == 6; }
  bool is_dict() const { return data_.index() == 7; }
  bool is_object() const { return data_.index() == 8; }
  // int or bool: Python's bool is an int.
  bool is_integral() const { return is_int() || is_bool(); }
  bool is_number() const { return is_integral() || is_float(); }
  bool is_tuple() const { return is_list() && as_list().is_tuple; }
  bool is_markup() const { return is_string() && markup_; }
  bool is_callable() const { return is_object() && as_object().is_callable(); }

  bool as_bool() const { return std::get<2>(data_); }
  int64_t as_int() const { return std::get<3>(data_); }
  double as_float() const { return std::get<4>(data_); }
  const std::string& as_string() const { return *std::get<5>(data_); }
  List& as_list() const { return *std::get<6>(data_); }
  Dict& as_dict() const { return *std::get<7>(data_); }
  Object& as_object() const { return *std::get<8>(data_); }
  const ListPtr& list_ptr() const { return std::get<6>(data_); }
  const ObjectPtr& object_ptr() const { return std::get<8>(data_); }
  // bool or int as an integer (True is 1).
  int64_t integral() const { return is_bool() ? (as_bool() ? 1 : 0) : as_int(); }
  // Any number as a double.
  double to_double() const;
  const std::string& undefined_hint() const;

  // Python's truthiness.
  bool truthy() const;
  // Python's type(x).__name__ as Jinja's messages use it.
  std::string type_name() const;

 private:
  using Data = std::variant<Undefined, std::nullptr_t, bool, int64_t, double, StringPtr, ListPtr,
                            DictPtr, ObjectPtr>;
  explicit Value(std::nullptr_t) : data_(nullptr) {}
  explicit Value(bool b) : data_(b) {}
  explicit Value(int64_t i) : data_(i) {}
  explicit Value(double f) : data_(f) {}
  explicit Value(StringPtr s) : data_(std::move(s)) {}
  explicit Value(ListPtr l) : data_(std::move(l)) {}
  explicit Value(DictPtr d) : data_(std::move(d)) {}
  explicit Value(ObjectPtr o) : data_(std::move(o)) {}
  explicit Value(Undefined u) : data_(std::move(u)) {}

  Data data_;
  bool markup_ = false;
};

// Python's ==.
bool values_equal(const Value& a, const Value& b);

// Positional and keyword arguments of a call.
struct CallArgs {
  std::vector<Value> positional;
  std::vector<std::pair<std::string, Value>> keyword;
};

}  // namespace ingot::chat::jinja
