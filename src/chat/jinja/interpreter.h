#pragma once
// Renders a parsed template: executes statements, evaluates expressions
// with Python/Jinja2 semantics, and enforces the render bounds. One
// Interpreter renders once; the syntax tree it walks is shared and const.

#include <cstdint>
#include <ctime>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "chat/jinja/ast.h"
#include "chat/jinja/value.h"

namespace ingot::chat::jinja {

struct RenderLimits {
  size_t max_output_bytes = size_t{32} << 20;
  int64_t max_loop_iterations = 1'000'000;  // summed over every loop of a render
  int max_call_depth = 100;                 // macro calls nested in each other
  int max_eval_depth = 1024;                // expression and statement recursion
};

struct RenderOptions {
  RenderLimits limits;
  // The clock strftime_now() reads; absent means the current time.
  std::optional<std::time_t> fixed_now;
};

// Variables visible to a scope; a for-loop iteration and a macro call each
// get their own, chained to where they were opened.
class Frame {
 public:
  explicit Frame(std::shared_ptr<Frame> parent = nullptr) : parent_(std::move(parent)) {}
  const Value* find(std::string_view name) const;
  void set(const std::string& name, Value value);

 private:
  std::shared_ptr<Frame> parent_;
  std::vector<std::pair<std::string, Value>> vars_;
};

class Interpreter {
 public:
  explicit Interpreter(const RenderOptions& options);

  // Renders `body` with `root` as the outermost scope.
  std::string render(const Body& body, std::shared_ptr<Frame> root);

  // Entry points for filters, tests, methods and globals.
  Value call(const Value& callee, CallArgs& args);
  Value apply_filter(const std::string& name, const Value& input, CallArgs& args);
  bool apply_test(const std::string& name, const Value& input, CallArgs& args);
  Value call_macro(const MacroNode& macro, const std::shared_ptr<Frame>& closure, CallArgs& args,
                   const Value& caller);
  // Counts one loop iteration against the render's bound.
  void count_iteration();
  const RenderOptions& options() const { return options_; }

 private:
  enum class Flow { kNormal, kBreak, kContinue };

  Flow exec_body(const Body& body, const std::shared_ptr<Frame>& frame, std::string& out);
  Flow exec(const Node& node, const std::shared_ptr<Frame>& frame, std::string& out);
  Flow exec_if(const IfNode& node, const std::shared_ptr<Frame>& frame, std::string& out);
  Flow exec_for(const ForNode& node, const std::shared_ptr<Frame>& frame, std::string& out);
  void exec_set(const SetNode& node, const std::shared_ptr<Frame>& frame);
  void exec_set_block(const SetBlockNode& node, const std::shared_ptr<Frame>& frame);
  void exec_call_block(const CallBlockNode& node, const std::shared_ptr<Frame>& frame,
                       std::string& out);
  void exec_filter_block(const FilterBlockNode& node, const std::shared_ptr<Frame>& frame,
                         std::string& out);
  void assign(const Node& target, const Value& value, const std::shared_ptr<Frame>& frame);
  void append_output(std::string& out, const Value& value);

  Value eval(const Node& node, const std::shared_ptr<Frame>& frame);
  Value eval_inner(const Node& node, const std::shared_ptr<Frame>& frame);
  Value eval_name(const NameNode& node, const std::shared_ptr<Frame>& frame);
  Value eval_list(const ListLiteralNode& node, const std::shared_ptr<Frame>& frame);
  Value eval_dict(const DictLiteralNode& node, const std::shared_ptr<Frame>& frame);
  Value eval_get_attr(const GetAttrNode& node, const std::shared_ptr<Frame>& frame);
  Value eval_get_item(const GetItemNode& node, const std::shared_ptr<Frame>& frame);
  Value eval_slice(const Value& object, const SliceNode& slice,
                   const std::shared_ptr<Frame>& frame);
  Value eval_call(const CallNode& node, const std::shared_ptr<Frame>& frame);
  Value eval_filter(const FilterNode& node, const std::shared_ptr<Frame>& frame,
                    const Value* input_override);
  Value eval_test(const TestNode& node, const std::shared_ptr<Frame>& frame);
  Value eval_unary(const UnaryNode& node, const std::shared_ptr<Frame>& frame);
  Value eval_compare(const CompareNode& node, const std::shared_ptr<Frame>& frame);
  CallArgs eval_args(const ArgList& args, const std::shared_ptr<Frame>& frame);

  const RenderOptions& options_;
  int64_t iterations_ = 0;
  int call_depth_ = 0;
  int eval_depth_ = 0;
};

// Python's getattr-then-getitem (`x.name`) and getitem-then-getattr
// (`x[key]`) as Jinja2's sandbox performs them.
Value get_attribute(const Value& object, const std::string& name);
Value get_item(const Value& object, const Value& key);

// Python's iter(): the elements a for loop visits (dict keys, string
// characters). Raises for values that are not iterable.
std::vector<Value> iterate(const Value& value);

}  // namespace ingot::chat::jinja
