#include "chat/jinja/builtin_tests.h"

#include <array>
#include <cmath>

#include "chat/jinja/call_args.h"
#include "chat/jinja/errors.h"
#include "chat/jinja/filters.h"
#include "chat/jinja/operators.h"
#include "chat/jinja/py_string.h"

namespace ingot::chat::jinja {
namespace {

bool t_defined(Interpreter&, const Value& v, CallArgs& a) {
  ArgReader(a, "defined", {});
  return !v.is_undefined();
}
bool t_undefined(Interpreter&, const Value& v, CallArgs& a) {
  ArgReader(a, "undefined", {});
  return v.is_undefined();
}
bool t_none(Interpreter&, const Value& v, CallArgs& a) {
  ArgReader(a, "none", {});
  return v.is_none();
}
bool t_boolean(Interpreter&, const Value& v, CallArgs& a) {
  ArgReader(a, "boolean", {});
  return v.is_bool();
}
bool t_true(Interpreter&, const Value& v, CallArgs& a) {
  ArgReader(a, "true", {});
  return v.is_bool() && v.as_bool();
}
bool t_false(Interpreter&, const Value& v, CallArgs& a) {
  ArgReader(a, "false", {});
  return v.is_bool() && !v.as_bool();
}
bool t_integer(Interpreter&, const Value& v, CallArgs& a) {
  ArgReader(a, "integer", {});
  return v.is_int();
}
bool t_float(Interpreter&, const Value& v, CallArgs& a) {
  ArgReader(a, "float", {});
  return v.is_float();
}
bool t_number(Interpreter&, const Value& v, CallArgs& a) {
  ArgReader(a, "number", {});
  return v.is_number();
}
bool t_string(Interpreter&, const Value& v, CallArgs& a) {
  ArgReader(a, "string", {});
  return v.is_string();
}
bool t_mapping(Interpreter&, const Value& v, CallArgs& a) {
  ArgReader(a, "mapping", {});
  return v.is_dict();
}
bool t_callable(Interpreter&, const Value& v, CallArgs& a) {
  ArgReader(a, "callable", {});
  return v.is_callable();
}
bool t_escaped(Interpreter&, const Value&, CallArgs& a) {
  ArgReader(a, "escaped", {});
  return false;
}

// Python's iter() succeeds: Undefined iterates as empty, so it counts.
bool t_iterable(Interpreter&, const Value& v, CallArgs& a) {
  ArgReader(a, "iterable", {});
  return v.is_undefined() || v.is_string() || v.is_list() || v.is_dict();
}

// len() and __getitem__ both exist (Undefined has both).
bool t_sequence(Interpreter&, const Value& v, CallArgs& a) {
  ArgReader(a, "sequence", {});
  if (v.is_list() && v.as_list().is_iterator) return false;
  return v.is_undefined() || v.is_string() || v.is_list() || v.is_dict();
}

int64_t integer_operand(const Value& v) {
  if (v.is_undefined()) throw_render_error(v.undefined_hint());
  if (!v.is_integral()) throw_render_error("not all arguments converted during string formatting");
  return v.integral();
}

bool t_even(Interpreter&, const Value& v, CallArgs& a) {
  ArgReader(a, "even", {});
  if (v.is_float()) return std::fmod(v.as_float(), 2.0) == 0.0;
  return integer_operand(v) % 2 == 0;
}

bool t_odd(Interpreter&, const Value& v, CallArgs& a) {
  ArgReader(a, "odd", {});
  if (v.is_float()) return std::fabs(std::fmod(v.as_float(), 2.0)) == 1.0;
  return integer_operand(v) % 2 != 0;
}

bool t_divisibleby(Interpreter&, const Value& v, CallArgs& a) {
  ArgReader reader(a, "divisibleby", {"num"}, 1);
  Value num = reader.get(0);
  if (v.is_float() || num.is_float()) {
    if (num.to_double() == 0) throw_render_error("float modulo");
    return std::fmod(v.to_double(), num.to_double()) == 0.0;
  }
  int64_t divisor = integer_operand(num);
  if (divisor == 0) throw_render_error("integer division or modulo by zero");
  if (divisor == -1) return true;
  return integer_operand(v) % divisor == 0;
}

bool t_sameas(Interpreter&, const Value& v, CallArgs& a) {
  ArgReader reader(a, "sameas", {"other"}, 1);
  Value other = reader.get(0);
  // Python's `is`: singletons compare by value, containers by identity.
  if (v.is_none() || other.is_none()) return v.is_none() && other.is_none();
  if (v.is_bool() || other.is_bool())
    return v.is_bool() && other.is_bool() && v.as_bool() == other.as_bool();
  if (v.is_list() && other.is_list()) return v.list_ptr() == other.list_ptr();
  if (v.is_object() && other.is_object()) return v.object_ptr() == other.object_ptr();
  return false;
}

template <CompareOp Op>
bool t_compare(Interpreter&, const Value& v, CallArgs& a) {
  ArgReader reader(a, "compare", {"other"}, 1);
  return compare(Op, v, reader.get(0));
}

bool t_in(Interpreter&, const Value& v, CallArgs& a) {
  ArgReader reader(a, "in", {"seq"}, 1);
  return contains(reader.get(0), v);
}

bool t_lower(Interpreter&, const Value& v, CallArgs& a) {
  ArgReader(a, "lower", {});
  std::string s = v.is_string() ? v.as_string() : "";
  return py::lower(s) == s && py::upper(s) != s;
}

bool t_upper(Interpreter&, const Value& v, CallArgs& a) {
  ArgReader(a, "upper", {});
  std::string s = v.is_string() ? v.as_string() : "";
  return py::upper(s) == s && py::lower(s) != s;
}

bool t_filter(Interpreter&, const Value& v, CallArgs& a) {
  ArgReader(a, "filter", {});
  return v.is_string() && find_filter(v.as_string()) != nullptr;
}

bool t_test(Interpreter&, const Value& v, CallArgs& a) {
  ArgReader(a, "test", {});
  return v.is_string() && find_test(v.as_string()) != nullptr;
}

struct TestEntry {
  std::string_view name;
  TestFn fn;
};

constexpr std::array kTests = {
    TestEntry{"defined", t_defined},
    TestEntry{"undefined", t_undefined},
    TestEntry{"none", t_none},
    TestEntry{"boolean", t_boolean},
    TestEntry{"true", t_true},
    TestEntry{"false", t_false},
    TestEntry{"integer", t_integer},
    TestEntry{"float", t_float},
    TestEntry{"number", t_number},
    TestEntry{"string", t_string},
    TestEntry{"mapping", t_mapping},
    TestEntry{"iterable", t_iterable},
    TestEntry{"sequence", t_sequence},
    TestEntry{"callable", t_callable},
    TestEntry{"escaped", t_escaped},
    TestEntry{"even", t_even},
    TestEntry{"odd", t_odd},
    TestEntry{"divisibleby", t_divisibleby},
    TestEntry{"sameas", t_sameas},
    TestEntry{"in", t_in},
    TestEntry{"lower", t_lower},
    TestEntry{"upper", t_upper},
    TestEntry{"filter", t_filter},
    TestEntry{"test", t_test},
    TestEntry{"==", t_compare<CompareOp::kEq>},
    TestEntry{"eq", t_compare<CompareOp::kEq>},
    TestEntry{"equalto", t_compare<CompareOp::kEq>},
    TestEntry{"!=", t_compare<CompareOp::kNe>},
    TestEntry{"ne", t_compare<CompareOp::kNe>},
    TestEntry{">", t_compare<CompareOp::kGt>},
    TestEntry{"gt", t_compare<CompareOp::kGt>},
    TestEntry{"greaterthan", t_compare<CompareOp::kGt>},
    TestEntry{">=", t_compare<CompareOp::kGe>},
    TestEntry{"ge", t_compare<CompareOp::kGe>},
    TestEntry{"<", t_compare<CompareOp::kLt>},
    TestEntry{"lt", t_compare<CompareOp::kLt>},
    TestEntry{"lessthan", t_compare<CompareOp::kLt>},
    TestEntry{"<=", t_compare<CompareOp::kLe>},
    TestEntry{"le", t_compare<CompareOp::kLe>},
};

}  // namespace

TestFn find_test(std::string_view name) {
  for (const TestEntry& entry : kTests) {
    if (entry.name == name) return entry.fn;
  }
  return nullptr;
}

bool is_known_test(std::string_view name) {
  return find_test(name) != nullptr;
}

}  // namespace ingot::chat::jinja
