#pragma once
// A Jinja2 template parsed once and rendered many times. Parsing checks the
// syntax and the filter/test names; rendering runs against a set of
// variables and returns the text or an Error naming the template line and
// column (kTemplateRaised for raise_exception(msg), whose message is msg).

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "chat/jinja/ast.h"
#include "chat/jinja/interpreter.h"
#include "chat/jinja/parser.h"
#include "util/status.h"

namespace ingot::chat::jinja {

using Variables = std::vector<std::pair<std::string, Value>>;

class Template {
 public:
  static Result<Template> parse(std::string_view source, const ParseLimits& limits = {});

  // Safe to call from several threads at once on one Template.
  Result<std::string> render(const Variables& variables, const RenderOptions& options = {}) const;

 private:
  explicit Template(std::shared_ptr<const Body> body) : body_(std::move(body)) {}
  std::shared_ptr<const Body> body_;
};

}  // namespace ingot::chat::jinja
