#pragma once
// The object types templates see besides plain data: namespace(), the loop
// variable, macros (and `caller`), and native functions (globals, bound
// methods, loop.cycle).

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "chat/jinja/ast.h"
#include "chat/jinja/interpreter.h"
#include "chat/jinja/value.h"

namespace ingot::chat::jinja {

// namespace(...): the one object whose attributes {% set ns.x = ... %} may
// assign, which is how templates carry state out of a loop.
class NamespaceObject : public Object {
 public:
  std::string_view type_name() const override { return "Namespace"; }
  std::optional<Value> attribute(std::string_view name) const override;
  std::string repr() const override;
  void set_attribute(std::string name, Value value) {
    attributes_.set(std::move(name), std::move(value));
  }

 private:
  Dict attributes_;
};

// The `loop` variable of one for loop; the loop advances `index0`.
class LoopObject : public Object {
 public:
  explicit LoopObject(std::shared_ptr<const std::vector<Value>> items) : items_(std::move(items)) {}
  std::string_view type_name() const override { return "LoopContext"; }
  std::optional<Value> attribute(std::string_view name) const override;
  std::string repr() const override;
  void set_index(size_t index0) { index0_ = index0; }

 private:
  std::shared_ptr<const std::vector<Value>> items_;
  size_t index0_ = 0;
  // loop.changed() remembers the last value it saw.
  std::shared_ptr<std::optional<std::vector<Value>>> last_changed_ =
      std::make_shared<std::optional<std::vector<Value>>>();
};

class MacroObject : public Object {
 public:
  MacroObject(const MacroNode& node, const std::shared_ptr<Frame>& closure)
      : node_(node), closure_(closure) {}
  std::string_view type_name() const override { return "Macro"; }
  std::optional<Value> attribute(std::string_view name) const override;
  bool is_callable() const override { return true; }
  Value call(Interpreter& interpreter, CallArgs& args) const override;
  std::string repr() const override { return "<Macro '" + node_.name + "'>"; }

 private:
  const MacroNode& node_;
  // Weak: the frame usually holds the macro itself, and a strong reference
  // would make a cycle that is never freed.
  std::weak_ptr<Frame> closure_;
};

using NativeFunction = std::function<Value(Interpreter&, CallArgs&)>;

class FunctionObject : public Object {
 public:
  FunctionObject(std::string name, NativeFunction fn)
      : name_(std::move(name)), fn_(std::move(fn)) {}
  std::string_view type_name() const override { return "builtin_function_or_method"; }
  bool is_callable() const override { return true; }
  Value call(Interpreter& interpreter, CallArgs& args) const override {
    return fn_(interpreter, args);
  }
  std::string repr() const override { return "<built-in function " + name_ + ">"; }

 private:
  std::string name_;
  NativeFunction fn_;
};

Value make_function(std::string name, NativeFunction fn);

}  // namespace ingot::chat::jinja
