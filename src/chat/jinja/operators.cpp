#include "chat/jinja/operators.h"

#include <cmath>
#include <cstdio>

#include "chat/jinja/errors.h"
#include "chat/jinja/value_format.h"

namespace ingot::chat::jinja {
namespace {

const char* op_symbol(BinaryOp op) {
  switch (op) {
    case BinaryOp::kAdd:
      return "+";
    case BinaryOp::kSub:
      return "-";
    case BinaryOp::kMul:
      return "*";
    case BinaryOp::kDiv:
      return "/";
    case BinaryOp::kFloorDiv:
      return "//";
    case BinaryOp::kMod:
      return "%";
    case BinaryOp::kPow:
      return "**";
    case BinaryOp::kConcat:
      return "~";
  }
  return "?";
}

[[noreturn]] void unsupported_operands(BinaryOp op, const Value& a, const Value& b) {
  throw_render_error(std::string("unsupported operand type(s) for ") + op_symbol(op) + ": '" +
                     a.type_name() + "' and '" + b.type_name() + "'");
}

[[noreturn]] void overflow() {
  throw_render_error("integer result too large");
}

using IntOp = bool (*)(int64_t, int64_t, int64_t*);
bool add_op(int64_t a, int64_t b, int64_t* r) {
  return __builtin_add_overflow(a, b, r);
}
bool sub_op(int64_t a, int64_t b, int64_t* r) {
  return __builtin_sub_overflow(a, b, r);
}
bool mul_op(int64_t a, int64_t b, int64_t* r) {
  return __builtin_mul_overflow(a, b, r);
}

// a op b, raising where Python would grow past 64 bits.
int64_t checked(IntOp op, int64_t a, int64_t b) {
  int64_t result = 0;
  if (op(a, b, &result)) overflow();
  return result;
}

Value int_pow(int64_t base, int64_t exponent) {
  if (exponent < 0)
    return Value::number(std::pow(static_cast<double>(base), static_cast<double>(exponent)));
  int64_t result = 1;
  while (exponent > 0) {
    if (exponent & 1) result = checked(mul_op, result, base);
    exponent >>= 1;
    if (exponent > 0) base = checked(mul_op, base, base);
  }
  return Value::integer(result);
}

int64_t floor_div(int64_t a, int64_t b) {
  if (a == INT64_MIN && b == -1) overflow();
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

Value arithmetic(BinaryOp op, const Value& a, const Value& b) {
  bool both_int = a.is_integral() && b.is_integral();
  if (both_int) {
    int64_t x = a.integral();
    int64_t y = b.integral();
    switch (op) {
      case BinaryOp::kAdd:
        return Value::integer(checked(add_op, x, y));
      case BinaryOp::kSub:
        return Value::integer(checked(sub_op, x, y));
      case BinaryOp::kMul:
        return Value::integer(checked(mul_op, x, y));
      case BinaryOp::kDiv:
        if (y == 0) throw_render_error("division by zero");
        return Value::number(static_cast<double>(x) / static_cast<double>(y));
      case BinaryOp::kFloorDiv:
        if (y == 0) throw_render_error("integer division or modulo by zero");
        return Value::integer(floor_div(x, y));
      case BinaryOp::kMod:
        if (y == 0) throw_render_error("integer division or modulo by zero");
        return Value::integer(x - floor_div(x, y) * y);
      case BinaryOp::kPow:
        return int_pow(x, y);
      default:
        break;
    }
  }
  double x = a.to_double();
  double y = b.to_double();
  switch (op) {
    case BinaryOp::kAdd:
      return Value::number(x + y);
    case BinaryOp::kSub:
      return Value::number(x - y);
    case BinaryOp::kMul:
      return Value::number(x * y);
    case BinaryOp::kDiv:
      if (y == 0) throw_render_error("float division by zero");
      return Value::number(x / y);
    case BinaryOp::kFloorDiv:
      if (y == 0) throw_render_error("float floor division by zero");
      return Value::number(std::floor(x / y));
    case BinaryOp::kMod: {
      if (y == 0) throw_render_error("float modulo");
      double m = std::fmod(x, y);
      if (m != 0 && ((m < 0) != (y < 0))) m += y;
      return Value::number(m);
    }
    case BinaryOp::kPow:
      return Value::number(std::pow(x, y));
    default:
      break;
  }
  unsupported_operands(op, a, b);
}

Value repeat(const Value& sequence, int64_t times, size_t max_size) {
  if (times < 0) times = 0;
  if (sequence.is_string()) {
    const std::string& s = sequence.as_string();
    if (!s.empty() && static_cast<uint64_t>(times) > max_size / s.size()) {
      throw_limit_error("string repetition too large");
    }
    std::string out;
    for (int64_t i = 0; i < times; ++i) out += s;
    return Value::string(std::move(out));
  }
  const List& list = sequence.as_list();
  if (!list.items.empty() && static_cast<uint64_t>(times) > max_size / list.items.size()) {
    throw_limit_error("list repetition too large");
  }
  std::vector<Value> items;
  for (int64_t i = 0; i < times; ++i)
    items.insert(items.end(), list.items.begin(), list.items.end());
  return Value::list(std::move(items), list.is_tuple);
}

Value add(const Value& a, const Value& b) {
  if (a.is_string() && b.is_string()) {
    if (!a.is_markup() && !b.is_markup()) return Value::string(a.as_string() + b.as_string());
    // Markup + str escapes the plain side (and str + Markup, via __radd__).
    std::string left = a.is_markup() ? a.as_string() : html_escape(a.as_string());
    std::string right = b.is_markup() ? b.as_string() : html_escape(b.as_string());
    return Value::markup(left + right);
  }
  if (a.is_list() && b.is_list() && a.is_tuple() == b.is_tuple() && !a.as_list().is_iterator &&
      !b.as_list().is_iterator) {
    std::vector<Value> items = a.as_list().items;
    items.insert(items.end(), b.as_list().items.begin(), b.as_list().items.end());
    return Value::list(std::move(items), a.is_tuple());
  }
  if (a.is_string()) {
    throw_render_error("can only concatenate str (not \"" + b.type_name() + "\") to str");
  }
  if (a.is_list()) {
    throw_render_error("can only concatenate " + a.type_name() + " (not \"" + b.type_name() +
                       "\") to " + a.type_name());
  }
  unsupported_operands(BinaryOp::kAdd, a, b);
}

int sequence_compare(const List& a, const List& b) {
  size_t n = std::min(a.items.size(), b.items.size());
  for (size_t i = 0; i < n; ++i) {
    if (values_equal(a.items[i], b.items[i])) continue;
    return less_than(a.items[i], b.items[i]) ? -1 : 1;
  }
  if (a.items.size() == b.items.size()) return 0;
  return a.items.size() < b.items.size() ? -1 : 1;
}

// Python's repr-style conversion for one %-directive.
std::string format_directive(char conversion, const Value& arg, int precision) {
  switch (conversion) {
    case 's':
      return to_str(arg);
    case 'r':
      return to_repr(arg);
    case 'd':
    case 'i':
      if (!arg.is_number())
        throw_render_error("%d format: a number is required, not " + arg.type_name());
      return std::to_string(arg.is_float() ? static_cast<int64_t>(arg.as_float()) : arg.integral());
    case 'f': {
      if (!arg.is_number()) throw_render_error("must be real number, not " + arg.type_name());
      char buf[512];
      std::snprintf(buf, sizeof buf, "%.*f", precision < 0 ? 6 : std::min(precision, 100),
                    arg.to_double());
      return buf;
    }
    default:
      throw_render_error(std::string("unsupported format character '") + conversion + "'");
  }
}

}  // namespace

Value binary_op(BinaryOp op, const Value& a, const Value& b, size_t max_size) {
  if (op == BinaryOp::kConcat) return Value::string(to_str(a) + to_str(b));
  if (a.is_undefined()) throw_render_error(a.undefined_hint());
  if (b.is_undefined()) throw_render_error(b.undefined_hint());
  if (a.is_number() && b.is_number()) return arithmetic(op, a, b);
  if (op == BinaryOp::kAdd) return add(a, b);
  if (op == BinaryOp::kMul) {
    if ((a.is_string() || a.is_list()) && b.is_integral()) return repeat(a, b.integral(), max_size);
    if ((b.is_string() || b.is_list()) && a.is_integral()) return repeat(b, a.integral(), max_size);
  }
  if (op == BinaryOp::kMod && a.is_string()) return Value::string(percent_format(a.as_string(), b));
  unsupported_operands(op, a, b);
}

bool less_than(const Value& a, const Value& b) {
  if (a.is_undefined()) throw_render_error(a.undefined_hint());
  if (b.is_undefined()) throw_render_error(b.undefined_hint());
  if (a.is_number() && b.is_number()) {
    if (a.is_float() || b.is_float()) return a.to_double() < b.to_double();
    return a.integral() < b.integral();
  }
  if (a.is_string() && b.is_string()) return a.as_string() < b.as_string();
  if (a.is_list() && b.is_list() && a.is_tuple() == b.is_tuple()) {
    return sequence_compare(a.as_list(), b.as_list()) < 0;
  }
  throw_render_error("'<' not supported between instances of '" + a.type_name() + "' and '" +
                     b.type_name() + "'");
}

bool compare(CompareOp op, const Value& a, const Value& b) {
  switch (op) {
    case CompareOp::kEq:
      return values_equal(a, b);
    case CompareOp::kNe:
      return !values_equal(a, b);
    case CompareOp::kLt:
      return less_than(a, b);
    case CompareOp::kGt:
      return less_than(b, a);
    case CompareOp::kLe:
      return less_than(a, b) || values_equal(a, b);
    case CompareOp::kGe:
      return less_than(b, a) || values_equal(a, b);
    case CompareOp::kIn:
      return contains(b, a);
    case CompareOp::kNotIn:
      return !contains(b, a);
  }
  return false;
}

bool contains(const Value& container, const Value& item) {
  if (container.is_undefined()) return false;  // Undefined iterates as empty
  if (container.is_string()) {
    if (!item.is_string()) {
      throw_render_error("'in <string>' requires string as left operand, not " + item.type_name());
    }
    return container.as_string().find(item.as_string()) != std::string::npos;
  }
  if (container.is_list()) {
    for (const Value& element : container.as_list().items) {
      if (values_equal(element, item)) return true;
    }
    return false;
  }
  if (container.is_dict()) {
    if (item.is_list() && !item.is_tuple()) throw_render_error("unhashable type: 'list'");
    if (item.is_dict()) throw_render_error("unhashable type: 'dict'");
    return container.as_dict().find(item) != nullptr;
  }
  throw_render_error("argument of type '" + container.type_name() + "' is not iterable");
}

std::string percent_format(const std::string& format, const Value& args) {
  std::vector<Value> positional;
  if (args.is_tuple()) {
    positional = args.as_list().items;
  } else {
    positional.push_back(args);
  }
  std::string out;
  size_t next_arg = 0;
  for (size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%') {
      out += format[i];
      continue;
    }
    if (++i >= format.size()) throw_render_error("incomplete format");
    if (format[i] == '%') {
      out += '%';
      continue;
    }
    const Value* arg = nullptr;
    if (format[i] == '(') {
      size_t close = format.find(')', i);
      if (close == std::string::npos || !args.is_dict())
        throw_render_error("format requires a mapping");
      arg = args.as_dict().find(format.substr(i + 1, close - i - 1));
      if (!arg) throw_render_error("format key not found");
      i = close + 1;
    }
    int precision = -1;
    if (i < format.size() && format[i] == '.') {
      precision = 0;
      while (++i < format.size() && std::isdigit(static_cast<unsigned char>(format[i]))) {
        precision = std::min(precision * 10 + (format[i] - '0'), 1000);
      }
    }
    if (i >= format.size()) throw_render_error("incomplete format");
    if (!arg) {
      if (next_arg >= positional.size())
        throw_render_error("not enough arguments for format string");
      arg = &positional[next_arg++];
    }
    out += format_directive(format[i], *arg, precision);
  }
  if (!args.is_dict() && next_arg < positional.size()) {
    throw_render_error("not all arguments converted during string formatting");
  }
  return out;
}

}  // namespace ingot::chat::jinja
