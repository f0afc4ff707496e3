#include "chat/jinja/globals.h"

#include <ctime>

#include "chat/jinja/call_args.h"
#include "chat/jinja/errors.h"
#include "chat/jinja/objects.h"
#include "chat/jinja/value_format.h"

namespace ingot::chat::jinja {
namespace {

// Jinja2's sandbox refuses ranges longer than this (MAX_RANGE).
constexpr int64_t kMaxRange = 100000;

Value range(Interpreter& interpreter, CallArgs& args) {
  if (!args.keyword.empty()) throw_render_error("range() takes no keyword arguments");
  if (args.positional.empty() || args.positional.size() > 3) {
    throw_render_error("range expected 1 to 3 arguments");
  }
  for (const Value& arg : args.positional) {
    if (!arg.is_integral()) {
      throw_render_error(
          str_cat("\'", arg.type_name(), "' object cannot be interpreted as an integer"));
    }
  }
  int64_t start = 0;
  int64_t stop = args.positional[0].integral();
  int64_t step = 1;
  if (args.positional.size() >= 2) {
    start = args.positional[0].integral();
    stop = args.positional[1].integral();
  }
  if (args.positional.size() == 3) step = args.positional[2].integral();
  if (step == 0) throw_render_error("range() arg 3 must not be zero");
  long double span = static_cast<long double>(stop) - static_cast<long double>(start);
  long double count = span / static_cast<long double>(step);
  if (count > kMaxRange)
    throw_render_error("Range too big. The sandbox blocks ranges larger than MAX_RANGE (100000).");
  std::vector<Value> items;
  for (int64_t i = start; step > 0 ? i < stop : i > stop;) {
    interpreter.count_iteration();
    items.push_back(Value::integer(i));
    if (__builtin_add_overflow(i, step, &i)) break;
  }
  return Value::list(std::move(items));
}

Value make_namespace(Interpreter&, CallArgs& args) {
  auto ns = std::make_shared<NamespaceObject>();
  for (const Value& arg : args.positional) {
    if (!arg.is_dict()) throw_render_error("namespace() positional argument must be a mapping");
    for (const auto& [key, value] : arg.as_dict().items) ns->set_attribute(to_str(key), value);
  }
  for (const auto& [key, value] : args.keyword) ns->set_attribute(key, value);
  return Value::object(ns);
}

Value make_dict(Interpreter&, CallArgs& args) {
  auto dict = std::make_shared<Dict>();
  for (const Value& arg : args.positional) {
    if (!arg.is_dict()) throw_render_error("dict() positional argument must be a mapping");
    for (const auto& [key, value] : arg.as_dict().items) dict->set(key, value);
  }
  for (const auto& [key, value] : args.keyword) dict->set(key, value);
  return Value::dict(dict);
}

Value raise_exception(Interpreter&, CallArgs& args) {
  ArgReader reader(args, "raise_exception", {"message"}, 1);
  throw_raised(to_str(reader.get(0)));
}

Value strftime_now(Interpreter& interpreter, CallArgs& args) {
  ArgReader reader(args, "strftime_now", {"format"}, 1);
  std::optional<std::string> format = reader.get_string(0);
  if (!format) throw_render_error("strftime_now() format must be a string");
  std::time_t now = interpreter.options().fixed_now.value_or(std::time(nullptr));
  std::tm local{};
  localtime_r(&now, &local);
  std::string out(256 + format->size() * 8, '\0');
  size_t n = std::strftime(out.data(), out.size(), format->c_str(), &local);
  out.resize(n);
  return Value::string(std::move(out));
}

std::shared_ptr<Frame> build_global_frame() {
  auto frame = std::make_shared<Frame>();
  frame->set("range", make_function("range", range));
  frame->set("namespace", make_function("namespace", make_namespace));
  frame->set("dict", make_function("dict", make_dict));
  frame->set("raise_exception", make_function("raise_exception", raise_exception));
  frame->set("strftime_now", make_function("strftime_now", strftime_now));
  return frame;
}

}  // namespace

std::shared_ptr<Frame> global_frame() {
  static const std::shared_ptr<Frame> frame = build_global_frame();
  return frame;
}

}  // namespace ingot::chat::jinja
