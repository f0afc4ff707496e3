#include "chat/jinja/template.h"

#include "chat/jinja/globals.h"

namespace ingot::chat::jinja {

Result<Template> Template::parse(std::string_view source, const ParseLimits& limits) {
  try {
    return Template(std::make_shared<const Body>(parse_template(source, limits)));
  } catch (const ErrorException& error) {
    return error.error();
  }
}

Result<std::string> Template::render(const Variables& variables,
                                     const RenderOptions& options) const {
  auto root = std::make_shared<Frame>(global_frame());
  for (const auto& [name, value] : variables) root->set(name, value);
  try {
    Interpreter interpreter(options);
    return interpreter.render(*body_, root);
  } catch (const ErrorException& error) {
    return error.error();
  }
}

}  // namespace ingot::chat::jinja
