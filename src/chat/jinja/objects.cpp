#include "chat/jinja/objects.h"

#include "chat/jinja/errors.h"
#include "chat/jinja/value_format.h"

namespace ingot::chat::jinja {

Value make_function(std::string name, NativeFunction fn) {
  return Value::object(std::make_shared<FunctionObject>(std::move(name), std::move(fn)));
}

std::optional<Value> NamespaceObject::attribute(std::string_view name) const {
  if (const Value* value = attributes_.find(name)) return *value;
  return std::nullopt;
}

std::string NamespaceObject::repr() const {
  return "<Namespace " + to_repr(Value::dict(std::make_shared<Dict>(attributes_))) + ">";
}

std::optional<Value> LoopObject::attribute(std::string_view name) const {
  const auto n = static_cast<int64_t>(items_->size());
  const auto i = static_cast<int64_t>(index0_);
  if (name == "index") return Value::integer(i + 1);
  if (name == "index0") return Value::integer(i);
  if (name == "revindex") return Value::integer(n - i);
  if (name == "revindex0") return Value::integer(n - i - 1);
  if (name == "first") return Value::boolean(i == 0);
  if (name == "last") return Value::boolean(i == n - 1);
  if (name == "length") return Value::integer(n);
  if (name == "depth") return Value::integer(1);
  if (name == "depth0") return Value::integer(0);
  if (name == "previtem") {
    if (i == 0) return Value::undefined("there is no previous item");
    return (*items_)[index0_ - 1];
  }
  if (name == "nextitem") {
    if (i + 1 >= n) return Value::undefined("there is no next item");
    return (*items_)[index0_ + 1];
  }
  if (name == "cycle") {
    size_t index = index0_;
    return make_function("cycle", [index](Interpreter&, CallArgs& args) {
      if (args.positional.empty()) throw_render_error("no items for cycling given");
      return args.positional[index % args.positional.size()];
    });
  }
  if (name == "changed") {
    auto last = last_changed_;
    return make_function("changed", [last](Interpreter&, CallArgs& args) {
      bool same = last->has_value() && (*last)->size() == args.positional.size();
      for (size_t k = 0; same && k < args.positional.size(); ++k) {
        same = values_equal((**last)[k], args.positional[k]);
      }
      *last = args.positional;
      return Value::boolean(!same);
    });
  }
  return std::nullopt;
}

std::string LoopObject::repr() const {
  return "<LoopContext " + std::to_string(index0_ + 1) + "/" + std::to_string(items_->size()) + ">";
}

std::optional<Value> MacroObject::attribute(std::string_view name) const {
  if (name == "name") return Value::string(node_.name);
  return std::nullopt;
}

Value MacroObject::call(Interpreter& interpreter, CallArgs& args) const {
  std::shared_ptr<Frame> closure = closure_.lock();
  if (!closure) throw_render_error("macro '" + node_.name + "' called after its scope ended");
  return interpreter.call_macro(node_, closure, args, Value());
}

}  // namespace ingot::chat::jinja
