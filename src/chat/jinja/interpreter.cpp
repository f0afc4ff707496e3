#include "chat/jinja/interpreter.h"

#include "chat/jinja/builtin_tests.h"
#include "chat/jinja/errors.h"
#include "chat/jinja/filters.h"
#include "chat/jinja/methods.h"
#include "chat/jinja/objects.h"
#include "chat/jinja/operators.h"
#include "chat/jinja/py_string.h"
#include "chat/jinja/value_format.h"

namespace ingot::chat::jinja {
namespace {

// Counts recursion into eval/exec and restores the count on the way out.
class RecursionGuard {
 public:
  RecursionGuard(int& depth, int limit) : depth_(depth) {
    if (++depth_ > limit) {
      --depth_;
      throw_limit_error("template recursion deeper than " + std::to_string(limit));
    }
  }
  ~RecursionGuard() { --depth_; }
  RecursionGuard(const RecursionGuard&) = delete;
  RecursionGuard& operator=(const RecursionGuard&) = delete;

 private:
  int& depth_;
};

Value no_attribute(const Value& object, std::string_view name) {
  return Value::undefined(str_cat("\'", object.type_name(), " object' has no attribute '") +
                          std::string(name) + "'");
}

Value index_sequence(const Value& object, int64_t index) {
  if (object.is_list()) {
    const auto& items = object.as_list().items;
    const auto n = static_cast<int64_t>(items.size());
    if (index < 0) index += n;
    if (index < 0 || index >= n)
      return Value::undefined(object.type_name() + " index out of range");
    return items[static_cast<size_t>(index)];
  }
  std::u32string cps = py::decode(object.as_string());
  const auto n = static_cast<int64_t>(cps.size());
  if (index < 0) index += n;
  if (index < 0 || index >= n) return Value::undefined("string index out of range");
  return Value::string(py::encode(cps.substr(static_cast<size_t>(index), 1)));
}

std::optional<int64_t> slice_bound(const Value& value) {
  if (value.is_none() || value.is_undefined()) return std::nullopt;
  if (!value.is_integral()) {
    throw_render_error("slice indices must be integers or None");
  }
  return value.integral();
}

}  // namespace

// ---- Frame ----

const Value* Frame::find(std::string_view name) const {
  for (const Frame* frame = this; frame; frame = frame->parent_.get()) {
    for (const auto& [key, value] : frame->vars_) {
      if (key == name) return &value;
    }
  }
  return nullptr;
}

void Frame::set(const std::string& name, Value value) {
  for (auto& [key, existing] : vars_) {
    if (key == name) {
      existing = std::move(value);
      return;
    }
  }
  vars_.emplace_back(name, std::move(value));
}

// ---- attribute and item access ----

Value get_attribute(const Value& object, const std::string& name) {
  if (object.is_undefined()) throw_render_error(object.undefined_hint());
  if (std::optional<Value> method = find_method(object, name)) return *method;
  if (object.is_dict()) {
    if (const Value* value = object.as_dict().find(name)) return *value;
  } else if (object.is_object()) {
    if (std::optional<Value> value = object.as_object().attribute(name)) return *value;
  }
  return no_attribute(object, name);
}

Value get_item(const Value& object, const Value& key) {
  if (object.is_undefined()) throw_render_error(object.undefined_hint());
  if (object.is_dict()) {
    if (const Value* value = object.as_dict().find(key)) return *value;
  } else if (object.is_list() &&
             (object.as_list().is_iterator || !object.as_list().view_name.empty())) {
    return Value::undefined("'generator' object is not subscriptable");
  } else if ((object.is_list() || object.is_string()) && key.is_integral()) {
    return index_sequence(object, key.integral());
  } else if (object.is_object() && key.is_string()) {
    if (std::optional<Value> value = object.as_object().attribute(key.as_string())) return *value;
  }
  if (key.is_string()) {
    if (std::optional<Value> method = find_method(object, key.as_string())) return *method;
  }
  return Value::undefined(str_cat("\'", object.type_name(), " object' has no attribute ") +
                          to_repr(key));
}

std::vector<Value> iterate(const Value& value) {
  if (value.is_list()) {
    List& list = value.as_list();
    if (!list.is_iterator) return list.items;
    // A generator yields its items once.
    if (list.consumed) return {};
    list.consumed = true;
    return list.items;
  }
  if (value.is_undefined()) return {};
  if (value.is_dict()) {
    std::vector<Value> keys;
    keys.reserve(value.as_dict().items.size());
    for (const auto& [key, _] : value.as_dict().items) keys.push_back(key);
    return keys;
  }
  if (value.is_string()) {
    std::vector<Value> chars;
    for (char32_t c : py::decode(value.as_string()))
      chars.push_back(Value::string(py::encode({&c, 1})));
    return chars;
  }
  throw_render_error(str_cat("\'", value.type_name(), "' object is not iterable"));
}

// ---- Interpreter ----

Interpreter::Interpreter(const RenderOptions& options) : options_(options) {}

std::string Interpreter::render(const Body& body, std::shared_ptr<Frame> root) {
  std::string out;
  exec_body(body, root, out);
  return out;
}

void Interpreter::count_iteration() {
  if (++iterations_ > options_.limits.max_loop_iterations) {
    throw_limit_error("more than " + std::to_string(options_.limits.max_loop_iterations) +
                      " loop iterations");
  }
}

void Interpreter::append_output(std::string& out, const Value& value) {
  append_str(out, value);
  if (out.size() > options_.limits.max_output_bytes) {
    throw_limit_error("output larger than " + std::to_string(options_.limits.max_output_bytes) +
                      " bytes");
  }
}

Interpreter::Flow Interpreter::exec_body(const Body& body, const std::shared_ptr<Frame>& frame,
                                         std::string& out) {
  for (const NodePtr& node : body) {
    Flow flow = exec(*node, frame, out);
    if (flow != Flow::kNormal) return flow;
  }
  return Flow::kNormal;
}

Interpreter::Flow Interpreter::exec(const Node& node, const std::shared_ptr<Frame>& frame,
                                    std::string& out) {
  RecursionGuard guard(eval_depth_, options_.limits.max_eval_depth);
  try {
    switch (node.kind) {
      case NodeKind::kText:
        out += static_cast<const TextNode&>(node).text;
        if (out.size() > options_.limits.max_output_bytes) throw_limit_error("output too large");
        return Flow::kNormal;
      case NodeKind::kPrint:
        append_output(out, eval(*static_cast<const PrintNode&>(node).expr, frame));
        return Flow::kNormal;
      case NodeKind::kIf:
        return exec_if(static_cast<const IfNode&>(node), frame, out);
      case NodeKind::kFor:
        return exec_for(static_cast<const ForNode&>(node), frame, out);
      case NodeKind::kSet:
        exec_set(static_cast<const SetNode&>(node), frame);
        return Flow::kNormal;
      case NodeKind::kSetBlock:
        exec_set_block(static_cast<const SetBlockNode&>(node), frame);
        return Flow::kNormal;
      case NodeKind::kMacro: {
        const auto& macro = static_cast<const MacroNode&>(node);
        frame->set(macro.name, Value::object(std::make_shared<MacroObject>(macro, frame)));
        return Flow::kNormal;
      }
      case NodeKind::kCallBlock:
        exec_call_block(static_cast<const CallBlockNode&>(node), frame, out);
        return Flow::kNormal;
      case NodeKind::kFilterBlock:
        exec_filter_block(static_cast<const FilterBlockNode&>(node), frame, out);
        return Flow::kNormal;
      case NodeKind::kBreak:
        return Flow::kBreak;
      case NodeKind::kContinue:
        return Flow::kContinue;
      case NodeKind::kScopeBody:
        return exec_body(static_cast<const ScopeBodyNode&>(node).body, frame, out);
      default:
        throw_render_error("not a statement");
    }
  } catch (const ErrorException& error) {
    throw with_position(error, node.pos);
  }
}

Interpreter::Flow Interpreter::exec_if(const IfNode& node, const std::shared_ptr<Frame>& frame,
                                       std::string& out) {
  for (const auto& [test, body] : node.branches) {
    if (eval(*test, frame).truthy()) return exec_body(body, frame, out);
  }
  return exec_body(node.else_body, frame, out);
}

Interpreter::Flow Interpreter::exec_for(const ForNode& node, const std::shared_ptr<Frame>& frame,
                                        std::string& out) {
  std::vector<Value> all = iterate(eval(*node.iterable, frame));
  auto items = std::make_shared<std::vector<Value>>();
  if (node.condition) {
    for (Value& item : all) {
      count_iteration();
      auto scope = std::make_shared<Frame>(frame);
      assign(*node.target, item, scope);
      if (eval(*node.condition, scope).truthy()) items->push_back(std::move(item));
    }
  } else {
    *items = std::move(all);
  }
  if (items->empty()) {
    auto scope = std::make_shared<Frame>(frame);
    exec_body(node.else_body, scope, out);
    return Flow::kNormal;
  }
  auto loop = std::make_shared<LoopObject>(items);
  Value loop_value = Value::object(loop);
  for (size_t i = 0; i < items->size(); ++i) {
    count_iteration();
    auto scope = std::make_shared<Frame>(frame);
    assign(*node.target, (*items)[i], scope);
    loop->set_index(i);
    scope->set("loop", loop_value);
    if (exec_body(node.body, scope, out) == Flow::kBreak) break;
  }
  return Flow::kNormal;
}

void Interpreter::assign(const Node& target, const Value& value,
                         const std::shared_ptr<Frame>& frame) {
  if (target.kind == NodeKind::kName) {
    frame->set(static_cast<const NameNode&>(target).name, value);
    return;
  }
  if (target.kind == NodeKind::kGetAttr) {
    const auto& attr = static_cast<const GetAttrNode&>(target);
    Value ns = eval(*attr.object, frame);
    auto* namespace_object =
        ns.is_object() ? dynamic_cast<NamespaceObject*>(&ns.as_object()) : nullptr;
    if (!namespace_object) throw_render_error("cannot assign attribute on non-namespace object");
    namespace_object->set_attribute(attr.attribute, value);
    return;
  }
  const auto& names = static_cast<const ListLiteralNode&>(target).items;
  std::vector<Value> values = iterate(value);
  if (values.size() < names.size()) {
    throw_render_error("not enough values to unpack (expected " + std::to_string(names.size()) +
                       ", got " + std::to_string(values.size()) + ")");
  }
  if (values.size() > names.size()) {
    throw_render_error("too many values to unpack (expected " + std::to_string(names.size()) + ")");
  }
  for (size_t i = 0; i < names.size(); ++i) assign(*names[i], values[i], frame);
}

void Interpreter::exec_set(const SetNode& node, const std::shared_ptr<Frame>& frame) {
  assign(*node.target, eval(*node.value, frame), frame);
}

void Interpreter::exec_set_block(const SetBlockNode& node, const std::shared_ptr<Frame>& frame) {
  std::string body;
  exec_body(node.body, frame, body);
  Value value = Value::string(std::move(body));
  if (node.filter) {
    value = eval_filter(static_cast<const FilterNode&>(*node.filter), frame, &value);
  }
  assign(*node.target, value, frame);
}

void Interpreter::exec_call_block(const CallBlockNode& node, const std::shared_ptr<Frame>& frame,
                                  std::string& out) {
  const auto& call = static_cast<const CallNode&>(*node.call);
  Value callee = eval(*call.callee, frame);
  CallArgs args = eval_args(call.args, frame);
  args.keyword.emplace_back("caller",
                            Value::object(std::make_shared<MacroObject>(*node.caller, frame)));
  append_output(out, this->call(callee, args));
}

void Interpreter::exec_filter_block(const FilterBlockNode& node,
                                    const std::shared_ptr<Frame>& frame, std::string& out) {
  std::string body;
  exec_body(node.body, frame, body);
  Value input = Value::string(std::move(body));
  append_output(out, eval_filter(static_cast<const FilterNode&>(*node.filter), frame, &input));
}

Value Interpreter::call_macro(const MacroNode& macro, const std::shared_ptr<Frame>& closure,
                              CallArgs& args, const Value& caller) {
  RecursionGuard guard(call_depth_, options_.limits.max_call_depth);
  auto scope = std::make_shared<Frame>(closure);
  std::vector<Value> extra_positional;
  for (size_t i = 0; i < args.positional.size(); ++i) {
    if (i < macro.params.size()) {
      scope->set(macro.params[i].name, args.positional[i]);
    } else {
      extra_positional.push_back(args.positional[i]);
    }
  }
  if (!extra_positional.empty() && !macro.uses_varargs) {
    throw_render_error("macro '" + macro.name + "' takes not more than " +
                       std::to_string(macro.params.size()) + " argument(s)");
  }
  auto extra_keywords = std::make_shared<Dict>();
  Value caller_value = caller;
  for (auto& [key, value] : args.keyword) {
    bool is_param = false;
    for (size_t i = 0; i < macro.params.size(); ++i) {
      if (macro.params[i].name != key) continue;
      if (i < args.positional.size()) {
        throw_render_error("macro '" + macro.name + "' got multiple values for argument '" + key +
                           "'");
      }
      scope->set(key, value);
      is_param = true;
    }
    if (is_param) continue;
    if (key == "caller") {
      caller_value = value;
    } else if (macro.uses_kwargs) {
      extra_keywords->set(key, value);
    } else {
      throw_render_error("macro '" + macro.name + "' takes no keyword argument '" + key + "'");
    }
  }
  for (size_t i = args.positional.size(); i < macro.params.size(); ++i) {
    const MacroParam& param = macro.params[i];
    bool given = false;
    for (const auto& [key, _] : args.keyword) given = given || key == param.name;
    if (given) continue;
    scope->set(param.name, param.default_value ? eval(*param.default_value, scope)
                                               : Value::undefined("parameter '" + param.name +
                                                                  "' was not provided"));
  }
  if (macro.uses_varargs) scope->set("varargs", Value::list(std::move(extra_positional), true));
  if (macro.uses_kwargs) scope->set("kwargs", Value::dict(extra_keywords));
  if (macro.uses_caller) scope->set("caller", caller_value);
  std::string out;
  exec_body(macro.body, scope, out);
  return Value::string(std::move(out));
}

Value Interpreter::call(const Value& callee, CallArgs& args) {
  if (callee.is_undefined()) throw_render_error(callee.undefined_hint());
  if (!callee.is_callable())
    throw_render_error(str_cat("\'", callee.type_name(), "' object is not callable"));
  return callee.as_object().call(*this, args);
}

Value Interpreter::apply_filter(const std::string& name, const Value& input, CallArgs& args) {
  FilterFn fn = find_filter(name);
  if (!fn) throw_render_error("No filter named '" + name + "' found.");
  return fn(*this, input, args);
}

bool Interpreter::apply_test(const std::string& name, const Value& input, CallArgs& args) {
  TestFn fn = find_test(name);
  if (!fn) throw_render_error("No test named '" + name + "' found.");
  return fn(*this, input, args);
}

// ---- expressions ----

Value Interpreter::eval(const Node& node, const std::shared_ptr<Frame>& frame) {
  RecursionGuard guard(eval_depth_, options_.limits.max_eval_depth);
  try {
    return eval_inner(node, frame);
  } catch (const ErrorException& error) {
    throw with_position(error, node.pos);
  }
}

Value Interpreter::eval_inner(const Node& node, const std::shared_ptr<Frame>& frame) {
  switch (node.kind) {
    case NodeKind::kLiteral:
      return static_cast<const LiteralNode&>(node).value;
    case NodeKind::kName:
      return eval_name(static_cast<const NameNode&>(node), frame);
    case NodeKind::kListLiteral:
      return eval_list(static_cast<const ListLiteralNode&>(node), frame);
    case NodeKind::kDictLiteral:
      return eval_dict(static_cast<const DictLiteralNode&>(node), frame);
    case NodeKind::kGetAttr:
      return eval_get_attr(static_cast<const GetAttrNode&>(node), frame);
    case NodeKind::kGetItem:
      return eval_get_item(static_cast<const GetItemNode&>(node), frame);
    case NodeKind::kCall:
      return eval_call(static_cast<const CallNode&>(node), frame);
    case NodeKind::kFilter:
      return eval_filter(static_cast<const FilterNode&>(node), frame, nullptr);
    case NodeKind::kTest:
      return eval_test(static_cast<const TestNode&>(node), frame);
    case NodeKind::kUnary:
      return eval_unary(static_cast<const UnaryNode&>(node), frame);
    case NodeKind::kBinary: {
      const auto& binary = static_cast<const BinaryNode&>(node);
      Value left = eval(*binary.left, frame);
      Value right = eval(*binary.right, frame);
      return binary_op(binary.op, left, right, options_.limits.max_output_bytes);
    }
    case NodeKind::kLogical: {
      const auto& logical = static_cast<const LogicalNode&>(node);
      Value left = eval(*logical.left, frame);
      if (logical.is_and ? !left.truthy() : left.truthy()) return left;
      return eval(*logical.right, frame);
    }
    case NodeKind::kCompare:
      return eval_compare(static_cast<const CompareNode&>(node), frame);
    case NodeKind::kCondExpr: {
      const auto& cond = static_cast<const CondExprNode&>(node);
      if (eval(*cond.test, frame).truthy()) return eval(*cond.then_value, frame);
      if (cond.else_value) return eval(*cond.else_value, frame);
      return Value::undefined(
          "the inline if-expression evaluated to false and no else section "
          "was defined.");
    }
    case NodeKind::kSlice:
      throw_render_error("slice outside of a subscript");
    default:
      throw_render_error("not an expression");
  }
}

Value Interpreter::eval_name(const NameNode& node, const std::shared_ptr<Frame>& frame) {
  if (const Value* value = frame->find(node.name)) return *value;
  return Value::undefined("'" + node.name + "' is undefined");
}

Value Interpreter::eval_list(const ListLiteralNode& node, const std::shared_ptr<Frame>& frame) {
  std::vector<Value> items;
  items.reserve(node.items.size());
  for (const NodePtr& item : node.items) items.push_back(eval(*item, frame));
  return Value::list(std::move(items), node.is_tuple);
}

Value Interpreter::eval_dict(const DictLiteralNode& node, const std::shared_ptr<Frame>& frame) {
  auto dict = std::make_shared<Dict>();
  for (const auto& [key_node, value_node] : node.entries) {
    Value key = eval(*key_node, frame);
    if (key.is_list() && !key.is_tuple()) throw_render_error("unhashable type: 'list'");
    if (key.is_dict()) throw_render_error("unhashable type: 'dict'");
    dict->set(std::move(key), eval(*value_node, frame));
  }
  return Value::dict(std::move(dict));
}

Value Interpreter::eval_get_attr(const GetAttrNode& node, const std::shared_ptr<Frame>& frame) {
  return get_attribute(eval(*node.object, frame), node.attribute);
}

Value Interpreter::eval_get_item(const GetItemNode& node, const std::shared_ptr<Frame>& frame) {
  Value object = eval(*node.object, frame);
  if (node.index->kind == NodeKind::kSlice) {
    return eval_slice(object, static_cast<const SliceNode&>(*node.index), frame);
  }
  return get_item(object, eval(*node.index, frame));
}

Value Interpreter::eval_slice(const Value& object, const SliceNode& slice,
                              const std::shared_ptr<Frame>& frame) {
  auto bound = [&](const NodePtr& expr) -> std::optional<int64_t> {
    if (!expr) return std::nullopt;
    return slice_bound(eval(*expr, frame));
  };
  std::optional<int64_t> start = bound(slice.start);
  std::optional<int64_t> stop = bound(slice.stop);
  int64_t step = bound(slice.step).value_or(1);
  if (step == 0) throw_render_error("slice step cannot be zero");
  if (step == INT64_MIN) throw_render_error("slice step too large");
  if (object.is_undefined()) throw_render_error(object.undefined_hint());
  if (object.is_list() && !object.as_list().is_iterator) {
    const auto& items = object.as_list().items;
    std::vector<Value> picked;
    for (int64_t i : py::slice_indices(static_cast<int64_t>(items.size()), start, stop, step)) {
      picked.push_back(items[static_cast<size_t>(i)]);
    }
    return Value::list(std::move(picked), object.is_tuple());
  }
  if (object.is_string()) {
    std::u32string cps = py::decode(object.as_string());
    std::u32string picked;
    for (int64_t i : py::slice_indices(static_cast<int64_t>(cps.size()), start, stop, step)) {
      picked += cps[static_cast<size_t>(i)];
    }
    return Value::string(py::encode(picked));
  }
  return Value::undefined(str_cat("\'", object.type_name(), "' object is not subscriptable"));
}

CallArgs Interpreter::eval_args(const ArgList& args, const std::shared_ptr<Frame>& frame) {
  CallArgs out;
  for (const NodePtr& arg : args.positional) out.positional.push_back(eval(*arg, frame));
  for (const auto& [key, arg] : args.keyword) out.keyword.emplace_back(key, eval(*arg, frame));
  if (args.star_args) {
    for (Value& v : iterate(eval(*args.star_args, frame))) out.positional.push_back(std::move(v));
  }
  if (args.star_kwargs) {
    Value kwargs = eval(*args.star_kwargs, frame);
    if (!kwargs.is_dict()) throw_render_error("argument after ** must be a mapping");
    for (const auto& [key, value] : kwargs.as_dict().items) {
      if (!key.is_string()) throw_render_error("keywords must be strings");
      out.keyword.emplace_back(key.as_string(), value);
    }
  }
  return out;
}

Value Interpreter::eval_call(const CallNode& node, const std::shared_ptr<Frame>& frame) {
  Value callee = eval(*node.callee, frame);
  CallArgs args = eval_args(node.args, frame);
  return call(callee, args);
}

Value Interpreter::eval_filter(const FilterNode& node, const std::shared_ptr<Frame>& frame,
                               const Value* input_override) {
  Value input;
  if (!node.input) {
    input = input_override ? *input_override : Value();
  } else if (input_override && node.input->kind == NodeKind::kFilter) {
    input = eval_filter(static_cast<const FilterNode&>(*node.input), frame, input_override);
  } else {
    input = eval(*node.input, frame);
  }
  CallArgs args = eval_args(node.args, frame);
  try {
    return apply_filter(node.name, input, args);
  } catch (const ErrorException& error) {
    throw with_position(error, node.pos);
  }
}

Value Interpreter::eval_test(const TestNode& node, const std::shared_ptr<Frame>& frame) {
  Value input = eval(*node.input, frame);
  CallArgs args = eval_args(node.args, frame);
  bool result = apply_test(node.name, input, args);
  return Value::boolean(node.negated ? !result : result);
}

Value Interpreter::eval_unary(const UnaryNode& node, const std::shared_ptr<Frame>& frame) {
  Value operand = eval(*node.operand, frame);
  if (node.op == UnaryOp::kNot) return Value::boolean(!operand.truthy());
  if (operand.is_undefined()) throw_render_error(operand.undefined_hint());
  if (operand.is_float()) {
    return Value::number(node.op == UnaryOp::kNegate ? -operand.as_float() : operand.as_float());
  }
  if (operand.is_integral()) {
    int64_t i = operand.integral();
    if (node.op == UnaryOp::kPlus) return Value::integer(i);
    if (i == INT64_MIN) throw_render_error("integer result too large");
    return Value::integer(-i);
  }
  throw_render_error("bad operand type for unary " +
                     std::string(node.op == UnaryOp::kNegate ? "-" : "+") + ": '" +
                     operand.type_name() + "'");
}

Value Interpreter::eval_compare(const CompareNode& node, const std::shared_ptr<Frame>& frame) {
  Value left = eval(*node.first, frame);
  for (const auto& [op, right_node] : node.rest) {
    Value right = eval(*right_node, frame);
    if (!compare(op, left, right)) return Value::boolean(false);
    left = std::move(right);
  }
  return Value::boolean(true);
}

}  // namespace ingot::chat::jinja
