#pragma once
// The parser's view of the token stream: where it is, what comes next, and
// the syntax errors that name what was found instead.

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "chat/jinja/errors.h"
#include "chat/jinja/lexer.h"

namespace ingot::chat::jinja {

class TokenCursor {
 public:
  explicit TokenCursor(std::vector<Token> tokens) : tokens_(std::move(tokens)) {}

 protected:
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

 private:
  std::vector<Token> tokens_;
  size_t pos_ = 0;
};

}  // namespace ingot::chat::jinja
