#include "chat/jinja/parser.h"

#include <initializer_list>

#include "chat/jinja/expression_parser.h"
#include "chat/jinja/lexer.h"
#include "chat/jinja/name_check.h"

namespace ingot::chat::jinja {
namespace {

class StatementParser : public ExpressionParser {
 public:
  using ExpressionParser::ExpressionParser;

  Body parse_all() {
    Body body = parse_body({});
    if (current().type != TokenType::kEnd) fail("unexpected token");
    return body;
  }

 private:
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

  int loop_depth_ = 0;
};

}  // namespace

Body parse_template(std::string_view source, const ParseLimits& limits) {
  Body body = StatementParser(tokenize(source), limits).parse_all();
  check_filter_and_test_names(body);
  return body;
}

}  // namespace ingot::chat::jinja
