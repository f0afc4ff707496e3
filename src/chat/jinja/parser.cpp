#include "chat/jinja/parser.h"

#include <initializer_list>

#include "chat/jinja/lexer.h"
#include "chat/jinja/name_check.h"

namespace ingot::chat::jinja {
namespace {

class Parser {
 public:
  Parser(std::vector<Token> tokens, const ParseLimits& limits)
      : tokens_(std::move(tokens)), limits_(limits) {}

  Body parse_all() {
    Body body = parse_body({});
    if (current().type != TokenType::kEnd) fail("unexpected token");
    return body;
  }

 private:
  // Counts how deep the tree under construction is; see the chain loops.
  class DepthGuard {
   public:
    explicit DepthGuard(Parser& parser) : parser_(parser), saved_(parser.depth_) {
      parser.deeper();
    }
    ~DepthGuard() { parser_.depth_ = saved_; }

   private:
    Parser& parser_;
    int saved_;
  };

  void deeper() {
    if (++depth_ > limits_.max_nesting * 4) fail("template nested too deeply");
  }

  const Token& current() const { return tokens_[pos_]; }
  const Token& peek(size_t ahead = 1) const {
    return tokens_[std::min(pos_ + ahead, tokens_.size() - 1)];
  }
  SourcePos here() const { return current().pos; }
  void advance() {
    if (pos_ + 1 < tokens_.size()) ++pos_;
  }
  [[noreturn]] void fail(const std::string& message) const { throw_syntax_error(here(), message); }

  bool is_op(std::string_view op) const {
    return current().type == TokenType::kOperator && current().value == op;
  }
  bool is_name(std::string_view name) const {
    return current().type == TokenType::kName && current().value == name;
  }
  bool skip_op(std::string_view op) {
    if (!is_op(op)) return false;
    advance();
    return true;
  }
  bool skip_name(std::string_view name) {
    if (!is_name(name)) return false;
    advance();
    return true;
  }
  void expect_op(std::string_view op) {
    if (!skip_op(op)) fail("expected '" + std::string(op) + "', got " + describe(current()));
  }
  std::string expect_name() {
    if (current().type != TokenType::kName) fail("expected a name, got " + describe(current()));
    std::string name = current().value;
    advance();
    return name;
  }
  void expect_block_end() {
    if (current().type != TokenType::kBlockEnd) {
      fail("expected end of statement block, got " + describe(current()));
    }
    advance();
  }

  static std::string describe(const Token& token) {
    switch (token.type) {
      case TokenType::kEnd:
        return "end of template";
      case TokenType::kBlockEnd:
        return "end of statement block";
      case TokenType::kVariableEnd:
        return "end of print statement";
      case TokenType::kData:
        return "template data";
      default:
        return "'" + token.value + "'";
    }
  }

  // ---- statements ----

  // Parses until a block whose first name is in `end_names` (left current).
  Body parse_body(std::initializer_list<std::string_view> end_names) {
    Body body;
    while (current().type != TokenType::kEnd) {
      const Token& token = current();
      if (token.type == TokenType::kData) {
        body.push_back(std::make_unique<TextNode>(token.pos, token.value));
        advance();
      } else if (token.type == TokenType::kVariableBegin) {
        advance();
        NodePtr expr = parse_tuple(true, {});
        body.push_back(std::make_unique<PrintNode>(token.pos, std::move(expr)));
        if (current().type != TokenType::kVariableEnd) {
          fail("expected end of print statement, got " + describe(current()));
        }
        advance();
      } else {
        advance();  // {%
        if (current().type == TokenType::kName) {
          for (std::string_view end : end_names) {
            if (current().value == end) return body;
          }
        }
        body.push_back(parse_statement());
      }
    }
    if (end_names.size() > 0) {
      std::string expected;
      for (std::string_view end : end_names) {
        expected += expected.empty() ? "'" : " or '";
        expected += std::string(end) + "'";
      }
      fail("unexpected end of template, expected " + expected);
    }
    return body;
  }

  // Parses a body that ends with `{% end_name %}` and consumes that tag.
  Body parse_block_body(std::string_view end_name) {
    Body body = parse_body({end_name});
    advance();
    expect_block_end();
    return body;
  }

  NodePtr parse_statement() {
    DepthGuard guard(*this);
    if (depth_ > limits_.max_nesting) fail("statements nested too deeply");
    if (current().type != TokenType::kName) fail("tag name expected");
    std::string tag = current().value;
    SourcePos pos = here();
    advance();
    if (tag == "if") return parse_if(pos);
    if (tag == "for") return parse_for(pos);
    if (tag == "set") return parse_set(pos);
    if (tag == "macro") return parse_macro(pos);
    if (tag == "call") return parse_call_block(pos);
    if (tag == "filter") return parse_filter_block(pos);
    if (tag == "break" || tag == "continue") return parse_loop_control(pos, tag == "break");
    if (tag == "generation") return parse_generation(pos);
    throw_syntax_error(pos, "Encountered unknown tag '" + tag + "'");
  }

  NodePtr parse_if(SourcePos pos) {
    auto node = std::make_unique<IfNode>(pos);
    while (true) {
      NodePtr test = parse_tuple(false, {});
      expect_block_end();
      Body body = parse_body({"elif", "else", "endif"});
      node->branches.emplace_back(std::move(test), std::move(body));
      std::string tag = current().value;
      advance();
      if (tag == "elif") continue;
      if (tag == "else") {
        expect_block_end();
        node->else_body = parse_block_body("endif");
      } else {
        expect_block_end();
      }
      return node;
    }
  }

  NodePtr parse_for(SourcePos pos) {
    auto node = std::make_unique<ForNode>(pos);
    node->target = parse_assign_target(false, {"in"});
    if (!skip_name("in")) fail("expected 'in'");
    node->iterable = parse_tuple(false, {"recursive"});
    if (skip_name("if")) node->condition = parse_expression(true);
    node->recursive = skip_name("recursive");
    expect_block_end();
    ++loop_depth_;
    node->body = parse_body({"endfor", "else"});
    --loop_depth_;
    bool has_else = current().value == "else";
    advance();
    expect_block_end();
    if (has_else) node->else_body = parse_block_body("endfor");
    return node;
  }

  NodePtr parse_set(SourcePos pos) {
    NodePtr target = parse_assign_target(true, {});
    if (skip_op("=")) {
      NodePtr value = parse_tuple(true, {});
      expect_block_end();
      return std::make_unique<SetNode>(pos, std::move(target), std::move(value));
    }
    auto node = std::make_unique<SetBlockNode>(pos, std::move(target));
    if (is_op("|")) node->filter = parse_filter(nullptr, false);
    expect_block_end();
    node->body = parse_block_body("endset");
    return node;
  }

  std::vector<MacroParam> parse_signature() {
    std::vector<MacroParam> params;
    expect_op("(");
    while (!is_op(")")) {
      if (!params.empty()) expect_op(",");
      if (is_op(")")) break;
      MacroParam param;
      param.name = expect_name();
      if (skip_op("=")) {
        param.default_value = parse_expression(true);
      } else if (!params.empty() && params.back().default_value) {
        fail("non-default argument follows default argument");
      }
      params.push_back(std::move(param));
    }
    advance();
    return params;
  }

  // Parses a macro or caller body with its own loop scope.
  Body parse_macro_body(std::string_view end_name, MacroNode& macro) {
    int saved_loops = loop_depth_;
    loop_depth_ = 0;
    macro_stack_.push_back(&macro);
    Body body = parse_block_body(end_name);
    macro_stack_.pop_back();
    loop_depth_ = saved_loops;
    return body;
  }

  NodePtr parse_macro(SourcePos pos) {
    auto node = std::make_unique<MacroNode>(pos, expect_name());
    node->params = parse_signature();
    expect_block_end();
    node->body = parse_macro_body("endmacro", *node);
    return node;
  }

  NodePtr parse_call_block(SourcePos pos) {
    auto node = std::make_unique<CallBlockNode>(pos);
    node->caller = std::make_shared<MacroNode>(pos, "caller");
    if (is_op("(")) node->caller->params = parse_signature();
    node->call = parse_expression(true);
    if (node->call->kind != NodeKind::kCall) throw_syntax_error(pos, "expected call");
    expect_block_end();
    node->caller->body = parse_macro_body("endcall", *node->caller);
    return node;
  }

  NodePtr parse_filter_block(SourcePos pos) {
    auto node = std::make_unique<FilterBlockNode>(pos);
    node->filter = parse_filter(nullptr, true);
    expect_block_end();
    node->body = parse_block_body("endfilter");
    return node;
  }

  NodePtr parse_loop_control(SourcePos pos, bool is_break) {
    if (loop_depth_ == 0) {
      throw_syntax_error(
          pos, std::string("'") + (is_break ? "break" : "continue") + "' outside of a loop");
    }
    expect_block_end();
    return std::make_unique<LoopControlNode>(pos, is_break);
  }

  // transformers' {% generation %} marks assistant text for training masks;
  // when rendering it is transparent.
  NodePtr parse_generation(SourcePos pos) {
    auto node = std::make_unique<ScopeBodyNode>(pos);
    expect_block_end();
    node->body = parse_block_body("endgeneration");
    return node;
  }

  NodePtr parse_assign_target(bool with_namespace,
                              std::initializer_list<std::string_view> extra_end) {
    SourcePos pos = here();
    if (with_namespace && current().type == TokenType::kName && peek().value == "." &&
        peek().type == TokenType::kOperator && peek(2).type == TokenType::kName) {
      std::string ns = expect_name();
      advance();
      std::string attr = expect_name();
      return std::make_unique<GetAttrNode>(pos, std::make_unique<NameNode>(pos, ns), attr);
    }
    auto tuple = std::make_unique<ListLiteralNode>(pos, true);
    bool is_tuple = false;
    while (true) {
      if (!tuple->items.empty()) expect_op(",");
      if (at_tuple_end(extra_end)) break;
      SourcePos item_pos = here();
      if (current().type != TokenType::kName) fail("can't assign to " + describe(current()));
      tuple->items.push_back(std::make_unique<NameNode>(item_pos, expect_name()));
      if (!is_op(",")) break;
      is_tuple = true;
    }
    if (tuple->items.empty()) fail("expected an assignment target");
    if (!is_tuple) return std::move(tuple->items[0]);
    return tuple;
  }

  // ---- expressions ----

  bool at_tuple_end(std::initializer_list<std::string_view> extra_end) const {
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

  NodePtr parse_tuple(bool with_condexpr, std::initializer_list<std::string_view> extra_end,
                      bool explicit_parentheses = false) {
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

  NodePtr parse_expression(bool with_condexpr) {
    DepthGuard guard(*this);
    return with_condexpr ? parse_condexpr() : parse_or();
  }

  NodePtr parse_condexpr() {
    SourcePos pos = here();
    NodePtr expr = parse_or();
    while (skip_name("if")) {
      deeper();
      NodePtr test = parse_or();
      NodePtr otherwise;
      if (skip_name("else")) otherwise = parse_condexpr();
      expr = std::make_unique<CondExprNode>(pos, std::move(test), std::move(expr),
                                            std::move(otherwise));
    }
    return expr;
  }

  NodePtr parse_or() {
    SourcePos pos = here();
    int saved = depth_;
    NodePtr left = parse_and();
    while (skip_name("or")) {
      deeper();
      left = std::make_unique<LogicalNode>(pos, false, std::move(left), parse_and());
    }
    depth_ = saved;
    return left;
  }

  NodePtr parse_and() {
    SourcePos pos = here();
    int saved = depth_;
    NodePtr left = parse_not();
    while (skip_name("and")) {
      deeper();
      left = std::make_unique<LogicalNode>(pos, true, std::move(left), parse_not());
    }
    depth_ = saved;
    return left;
  }

  NodePtr parse_not() {
    if (is_name("not")) {
      SourcePos pos = here();
      advance();
      DepthGuard guard(*this);
      return std::make_unique<UnaryNode>(pos, UnaryOp::kNot, parse_not());
    }
    return parse_compare();
  }

  std::optional<CompareOp> compare_op() const {
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

  NodePtr parse_compare() {
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

  NodePtr parse_binary_chain(NodePtr (Parser::*operand)(),
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

  NodePtr parse_math1() {
    return parse_binary_chain(&Parser::parse_concat,
                              {{"+", BinaryOp::kAdd}, {"-", BinaryOp::kSub}});
  }
  NodePtr parse_concat() {
    return parse_binary_chain(&Parser::parse_math2, {{"~", BinaryOp::kConcat}});
  }
  NodePtr parse_math2() {
    return parse_binary_chain(&Parser::parse_pow, {{"*", BinaryOp::kMul},
                                                   {"/", BinaryOp::kDiv},
                                                   {"//", BinaryOp::kFloorDiv},
                                                   {"%", BinaryOp::kMod}});
  }
  NodePtr parse_pow() {
    return parse_binary_chain(&Parser::parse_unary_filtered, {{"**", BinaryOp::kPow}});
  }
  NodePtr parse_unary_filtered() { return parse_unary(true); }

  NodePtr parse_unary(bool with_filter) {
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

  NodePtr parse_primary() {
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

  NodePtr parse_name_primary() {
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

  void note_name_use(const std::string& name) {
    if (macro_stack_.empty()) return;
    MacroNode* macro = macro_stack_.back();
    if (name == "varargs") macro->uses_varargs = true;
    if (name == "kwargs") macro->uses_kwargs = true;
    if (name == "caller") macro->uses_caller = true;
  }

  NodePtr parse_integer() {
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

  NodePtr parse_list() {
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

  NodePtr parse_dict() {
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

  NodePtr parse_postfix(NodePtr node) {
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

  NodePtr parse_filter_expr(NodePtr node) {
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

  NodePtr parse_subscript(NodePtr node) {
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

  NodePtr parse_subscribed() {
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

  NodePtr parse_call(NodePtr callee) {
    auto node = std::make_unique<CallNode>(here(), std::move(callee));
    node->args = parse_call_args();
    return node;
  }

  ArgList parse_call_args() {
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

  std::string parse_dotted_name() {
    std::string name = expect_name();
    while (is_op(".") && peek().type == TokenType::kName) {
      advance();
      name += ".";
      name += expect_name();
    }
    return name;
  }

  // `| name(args) | name2`; with `start_inline` the first '|' is absent.
  NodePtr parse_filter(NodePtr node, bool start_inline) {
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

  NodePtr parse_test(NodePtr node) {
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

  std::vector<Token> tokens_;
  const ParseLimits& limits_;
  size_t pos_ = 0;
  int depth_ = 0;
  int loop_depth_ = 0;
  std::vector<MacroNode*> macro_stack_;
};

}  // namespace

Body parse_template(std::string_view source, const ParseLimits& limits) {
  Body body = Parser(tokenize(source), limits).parse_all();
  check_filter_and_test_names(body);
  return body;
}

}  // namespace ingot::chat::jinja
