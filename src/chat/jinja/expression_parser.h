#pragma once
// Jinja2's expressions, by precedence from the conditional expression down
// to literals, with the postfix chains (attribute, item, call, filter and
// test). The statement parser builds on it.

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "chat/jinja/ast.h"
#include "chat/jinja/parser.h"
#include "chat/jinja/token_cursor.h"

namespace ingot::chat::jinja {

class ExpressionParser : protected TokenCursor {
 public:
  ExpressionParser(std::vector<Token> tokens, const ParseLimits& limits)
      : TokenCursor(std::move(tokens)), limits_(limits) {}

 protected:
  // Counts how deep the tree under construction is; the chain loops count
  // each link, so that a long chain is as deep as the tree it builds.
  class DepthGuard {
   public:
    explicit DepthGuard(ExpressionParser& parser) : parser_(parser), saved_(parser.depth_) {
      parser.deeper();
    }
    ~DepthGuard() { parser_.depth_ = saved_; }

   private:
    ExpressionParser& parser_;
    int saved_;
  };

  void deeper() {
    if (++depth_ > limits_.max_nesting * 4) fail("template nested too deeply");
  }

  bool at_tuple_end(std::initializer_list<std::string_view> extra_end) const;
  NodePtr parse_tuple(bool with_condexpr, std::initializer_list<std::string_view> extra_end,
                      bool explicit_parentheses = false);
  NodePtr parse_expression(bool with_condexpr);
  // `| name(args) | name2`; with `start_inline` the first '|' is absent.
  NodePtr parse_filter(NodePtr node, bool start_inline);

  const ParseLimits& limits_;
  int depth_ = 0;
  // The macros being defined, innermost last: a macro that names
  // `varargs`, `kwargs` or `caller` accepts them.
  std::vector<MacroNode*> macro_stack_;

 private:
  NodePtr parse_condexpr();
  NodePtr parse_or();
  NodePtr parse_and();
  // `a or b or c` (or `and`): left-associative, each link one level deeper.
  NodePtr parse_logical_chain(NodePtr (ExpressionParser::*operand)(), std::string_view keyword,
                              bool is_and);
  NodePtr parse_not();
  std::optional<CompareOp> compare_op() const;
  NodePtr parse_compare();
  NodePtr parse_binary_chain(NodePtr (ExpressionParser::*operand)(),
                             std::initializer_list<std::pair<std::string_view, BinaryOp>> ops);
  NodePtr parse_math1();
  NodePtr parse_concat();
  NodePtr parse_math2();
  NodePtr parse_pow();
  NodePtr parse_unary_filtered();
  NodePtr parse_unary(bool with_filter);
  NodePtr parse_primary();
  NodePtr parse_name_primary();
  void note_name_use(const std::string& name);
  NodePtr parse_integer();
  NodePtr parse_list();
  NodePtr parse_dict();
  NodePtr parse_postfix(NodePtr node);
  NodePtr parse_filter_expr(NodePtr node);
  NodePtr parse_subscript(NodePtr node);
  NodePtr parse_subscribed();
  NodePtr parse_call(NodePtr callee);
  ArgList parse_call_args();
  std::string parse_dotted_name();
  NodePtr parse_test(NodePtr node);
};

}  // namespace ingot::chat::jinja
