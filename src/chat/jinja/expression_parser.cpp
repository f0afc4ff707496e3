#include "chat/jinja/expression_parser.h"

#include <cstdlib>

namespace ingot::chat::jinja {

bool ExpressionParser::at_tuple_end(std::initializer_list<std::string_view> extra_end) const {
  TokenType t = current().type;
  if (t == TokenType::kVariableEnd || t == TokenType::kBlockEnd || t == TokenType::kEnd) {
    return true;
  }
  if (is_op(")")) return true;
  for (std::string_view name : extra_end) {
    if (is_name(name)) return true;
  }
  return false;
}

NodePtr ExpressionParser::parse_tuple(bool with_condexpr,
                                      std::initializer_list<std::string_view> extra_end,
                                      bool explicit_parentheses) {
  SourcePos pos = here();
  auto tuple = std::make_unique<ListLiteralNode>(pos, true);
  bool is_tuple = false;
  while (true) {
    if (!tuple->items.empty()) expect_op(",");
    if (at_tuple_end(extra_end)) break;
    tuple->items.push_back(parse_expression(with_condexpr));
    if (!is_op(",")) break;
    is_tuple = true;
  }
  if (!is_tuple) {
    if (!tuple->items.empty()) return std::move(tuple->items[0]);
    if (!explicit_parentheses) fail("Expected an expression, got " + describe(current()));
  }
  return tuple;
}

NodePtr ExpressionParser::parse_expression(bool with_condexpr) {
  DepthGuard guard(*this);
  return with_condexpr ? parse_condexpr() : parse_or();
}

NodePtr ExpressionParser::parse_condexpr() {
  SourcePos pos = here();
  NodePtr expr = parse_or();
  while (skip_name("if")) {
    deeper();
    NodePtr test = parse_or();
    NodePtr otherwise;
    if (skip_name("else")) otherwise = parse_condexpr();
    expr =
        std::make_unique<CondExprNode>(pos, std::move(test), std::move(expr), std::move(otherwise));
  }
  return expr;
}

NodePtr ExpressionParser::parse_or() {
  return parse_logical_chain(&ExpressionParser::parse_and, "or", false);
}

NodePtr ExpressionParser::parse_and() {
  return parse_logical_chain(&ExpressionParser::parse_not, "and", true);
}

NodePtr ExpressionParser::parse_logical_chain(NodePtr (ExpressionParser::*operand)(),
                                              std::string_view keyword, bool is_and) {
  SourcePos pos = here();
  int saved = depth_;
  NodePtr left = (this->*operand)();
  while (skip_name(keyword)) {
    deeper();
    left = std::make_unique<LogicalNode>(pos, is_and, std::move(left), (this->*operand)());
  }
  depth_ = saved;
  return left;
}

NodePtr ExpressionParser::parse_not() {
  if (is_name("not")) {
    SourcePos pos = here();
    advance();
    DepthGuard guard(*this);
    return std::make_unique<UnaryNode>(pos, UnaryOp::kNot, parse_not());
  }
  return parse_compare();
}

std::optional<CompareOp> ExpressionParser::compare_op() const {
  if (current().type != TokenType::kOperator) return std::nullopt;
  const std::string& op = current().value;
  if (op == "==") return CompareOp::kEq;
  if (op == "!=") return CompareOp::kNe;
  if (op == "<") return CompareOp::kLt;
  if (op == "<=") return CompareOp::kLe;
  if (op == ">") return CompareOp::kGt;
  if (op == ">=") return CompareOp::kGe;
  return std::nullopt;
}

NodePtr ExpressionParser::parse_compare() {
  SourcePos pos = here();
  int saved = depth_;
  NodePtr first = parse_math1();
  auto node = std::make_unique<CompareNode>(pos, nullptr);
  while (true) {
    std::optional<CompareOp> op = compare_op();
    if (op) {
      advance();
    } else if (skip_name("in")) {
      op = CompareOp::kIn;
    } else if (is_name("not") && peek().type == TokenType::kName && peek().value == "in") {
      advance();
      advance();
      op = CompareOp::kNotIn;
    } else {
      break;
    }
    deeper();
    node->rest.emplace_back(*op, parse_math1());
  }
  depth_ = saved;
  if (node->rest.empty()) return first;
  node->first = std::move(first);
  return node;
}

NodePtr ExpressionParser::parse_binary_chain(
    NodePtr (ExpressionParser::*operand)(),
    std::initializer_list<std::pair<std::string_view, BinaryOp>> ops) {
  SourcePos pos = here();
  int saved = depth_;
  NodePtr left = (this->*operand)();
  while (true) {
    const BinaryOp* found = nullptr;
    for (const auto& [text, op] : ops) {
      if (is_op(text)) found = &op;
    }
    if (!found) break;
    advance();
    deeper();
    left = std::make_unique<BinaryNode>(pos, *found, std::move(left), (this->*operand)());
  }
  depth_ = saved;
  return left;
}

NodePtr ExpressionParser::parse_math1() {
  return parse_binary_chain(&ExpressionParser::parse_concat,
                            {{"+", BinaryOp::kAdd}, {"-", BinaryOp::kSub}});
}

NodePtr ExpressionParser::parse_concat() {
  return parse_binary_chain(&ExpressionParser::parse_math2, {{"~", BinaryOp::kConcat}});
}

NodePtr ExpressionParser::parse_math2() {
  return parse_binary_chain(&ExpressionParser::parse_pow, {{"*", BinaryOp::kMul},
                                                           {"/", BinaryOp::kDiv},
                                                           {"//", BinaryOp::kFloorDiv},
                                                           {"%", BinaryOp::kMod}});
}

NodePtr ExpressionParser::parse_pow() {
  return parse_binary_chain(&ExpressionParser::parse_unary_filtered, {{"**", BinaryOp::kPow}});
}

NodePtr ExpressionParser::parse_unary_filtered() {
  return parse_unary(true);
}

NodePtr ExpressionParser::parse_unary(bool with_filter) {
  DepthGuard guard(*this);
  SourcePos pos = here();
  NodePtr node;
  if (skip_op("-")) {
    node = std::make_unique<UnaryNode>(pos, UnaryOp::kNegate, parse_unary(false));
  } else if (skip_op("+")) {
    node = std::make_unique<UnaryNode>(pos, UnaryOp::kPlus, parse_unary(false));
  } else {
    node = parse_postfix(parse_primary());
  }
  if (with_filter) node = parse_filter_expr(std::move(node));
  return node;
}

NodePtr ExpressionParser::parse_primary() {
  DepthGuard guard(*this);
  const Token& token = current();
  SourcePos pos = token.pos;
  switch (token.type) {
    case TokenType::kName:
      return parse_name_primary();
    case TokenType::kString: {
      std::string text;
      while (current().type == TokenType::kString) {
        text += current().value;
        advance();
      }
      return std::make_unique<LiteralNode>(pos, Value::string(std::move(text)));
    }
    case TokenType::kInteger:
      return parse_integer();
    case TokenType::kFloat: {
      double value = std::strtod(token.value.c_str(), nullptr);
      advance();
      return std::make_unique<LiteralNode>(pos, Value::number(value));
    }
    default:
      break;
  }
  if (skip_op("(")) {
    NodePtr node = parse_tuple(true, {}, true);
    expect_op(")");
    return node;
  }
  if (is_op("[")) return parse_list();
  if (is_op("{")) return parse_dict();
  fail("unexpected " + describe(token));
}

NodePtr ExpressionParser::parse_name_primary() {
  SourcePos pos = here();
  std::string name = current().value;
  advance();
  if (name == "true" || name == "True")
    return std::make_unique<LiteralNode>(pos, Value::boolean(true));
  if (name == "false" || name == "False") {
    return std::make_unique<LiteralNode>(pos, Value::boolean(false));
  }
  if (name == "none" || name == "None") return std::make_unique<LiteralNode>(pos, Value::none());
  note_name_use(name);
  return std::make_unique<NameNode>(pos, std::move(name));
}

void ExpressionParser::note_name_use(const std::string& name) {
  if (macro_stack_.empty()) return;
  MacroNode* macro = macro_stack_.back();
  if (name == "varargs") macro->uses_varargs = true;
  if (name == "kwargs") macro->uses_kwargs = true;
  if (name == "caller") macro->uses_caller = true;
}

NodePtr ExpressionParser::parse_integer() {
  SourcePos pos = here();
  const std::string& digits = current().value;
  int64_t value = 0;
  for (char c : digits) {
    if (__builtin_mul_overflow(value, 10, &value) ||
        __builtin_add_overflow(value, c - '0', &value)) {
      fail("integer literal too large");
    }
  }
  advance();
  return std::make_unique<LiteralNode>(pos, Value::integer(value));
}

NodePtr ExpressionParser::parse_list() {
  auto node = std::make_unique<ListLiteralNode>(here(), false);
  expect_op("[");
  while (!is_op("]")) {
    if (!node->items.empty()) expect_op(",");
    if (is_op("]")) break;
    node->items.push_back(parse_expression(true));
  }
  advance();
  return node;
}

NodePtr ExpressionParser::parse_dict() {
  auto node = std::make_unique<DictLiteralNode>(here());
  expect_op("{");
  while (!is_op("}")) {
    if (!node->entries.empty()) expect_op(",");
    if (is_op("}")) break;
    NodePtr key = parse_expression(true);
    expect_op(":");
    node->entries.emplace_back(std::move(key), parse_expression(true));
  }
  advance();
  return node;
}

NodePtr ExpressionParser::parse_postfix(NodePtr node) {
  int saved = depth_;
  while (true) {
    if (is_op(".") || is_op("[")) {
      node = parse_subscript(std::move(node));
    } else if (is_op("(")) {
      node = parse_call(std::move(node));
    } else {
      break;
    }
    deeper();
  }
  depth_ = saved;
  return node;
}

NodePtr ExpressionParser::parse_filter_expr(NodePtr node) {
  int saved = depth_;
  while (true) {
    if (is_op("|")) {
      node = parse_filter(std::move(node), false);
    } else if (is_name("is")) {
      node = parse_test(std::move(node));
    } else if (is_op("(")) {
      node = parse_call(std::move(node));
    } else {
      break;
    }
    deeper();
  }
  depth_ = saved;
  return node;
}

NodePtr ExpressionParser::parse_subscript(NodePtr node) {
  SourcePos pos = here();
  if (skip_op(".")) {
    if (current().type == TokenType::kName) {
      return std::make_unique<GetAttrNode>(pos, std::move(node), expect_name());
    }
    if (current().type == TokenType::kInteger) {
      return std::make_unique<GetItemNode>(pos, std::move(node), parse_integer());
    }
    fail("expected name or number");
  }
  expect_op("[");
  std::vector<NodePtr> args;
  while (!is_op("]")) {
    if (!args.empty()) expect_op(",");
    args.push_back(parse_subscribed());
  }
  advance();
  if (args.empty()) fail("expected subscript expression");
  NodePtr index;
  if (args.size() == 1) {
    index = std::move(args[0]);
  } else {
    auto tuple = std::make_unique<ListLiteralNode>(pos, true);
    tuple->items = std::move(args);
    index = std::move(tuple);
  }
  return std::make_unique<GetItemNode>(pos, std::move(node), std::move(index));
}

NodePtr ExpressionParser::parse_subscribed() {
  SourcePos pos = here();
  auto slice = std::make_unique<SliceNode>(pos);
  if (!is_op(":")) {
    NodePtr node = parse_expression(true);
    if (!is_op(":")) return node;
    slice->start = std::move(node);
  }
  advance();  // the first ':'
  if (!is_op(":") && !is_op("]") && !is_op(",")) slice->stop = parse_expression(true);
  if (skip_op(":")) {
    if (!is_op("]") && !is_op(",")) slice->step = parse_expression(true);
  }
  return slice;
}

NodePtr ExpressionParser::parse_call(NodePtr callee) {
  auto node = std::make_unique<CallNode>(here(), std::move(callee));
  node->args = parse_call_args();
  return node;
}

ArgList ExpressionParser::parse_call_args() {
  ArgList args;
  expect_op("(");
  bool first = true;
  while (!is_op(")")) {
    if (!first) {
      expect_op(",");
      if (is_op(")")) break;
    }
    first = false;
    if (skip_op("*")) {
      args.star_args = parse_expression(true);
    } else if (skip_op("**")) {
      args.star_kwargs = parse_expression(true);
    } else if (current().type == TokenType::kName && peek().type == TokenType::kOperator &&
               peek().value == "=") {
      std::string key = expect_name();
      advance();
      args.keyword.emplace_back(std::move(key), parse_expression(true));
    } else {
      if (!args.keyword.empty() || args.star_args || args.star_kwargs) {
        fail("invalid syntax for function call expression");
      }
      args.positional.push_back(parse_expression(true));
    }
  }
  advance();
  return args;
}

std::string ExpressionParser::parse_dotted_name() {
  std::string name = expect_name();
  while (is_op(".") && peek().type == TokenType::kName) {
    advance();
    name += ".";
    name += expect_name();
  }
  return name;
}

NodePtr ExpressionParser::parse_filter(NodePtr node, bool start_inline) {
  while (is_op("|") || start_inline) {
    if (!start_inline) advance();
    start_inline = false;
    SourcePos pos = here();
    auto filter = std::make_unique<FilterNode>(pos, std::move(node), parse_dotted_name());
    if (is_op("(")) filter->args = parse_call_args();
    node = std::move(filter);
    deeper();
  }
  return node;
}

NodePtr ExpressionParser::parse_test(NodePtr node) {
  SourcePos pos = here();
  advance();  // 'is'
  bool negated = skip_name("not");
  auto test = std::make_unique<TestNode>(pos, std::move(node), parse_dotted_name(), negated);
  TokenType t = current().type;
  bool starts_operand = t == TokenType::kName || t == TokenType::kString ||
                        t == TokenType::kInteger || t == TokenType::kFloat || is_op("(") ||
                        is_op("[") || is_op("{");
  if (is_op("(")) {
    test->args = parse_call_args();
  } else if (starts_operand && !is_name("else") && !is_name("or") && !is_name("and")) {
    if (is_name("is")) fail("You cannot chain multiple tests with is");
    test->args.positional.push_back(parse_postfix(parse_primary()));
  }
  return test;
}

}  // namespace ingot::chat::jinja
