#include "cli/chat_template_choice.h"

#include <fstream>
#include <sstream>

#include "chat/chat_template.h"
#include "chat/chatml.h"

namespace ingot::cli {
namespace {

// Text with a Jinja tag in it is a template; anything else is a name.
bool looks_like_template(const std::string& text) {
  return text.find("{{") != std::string::npos || text.find("{%") != std::string::npos;
}

Result<std::string> read_template_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return not_found("--chat-template-file " + path + ": cannot be read");
  std::ostringstream text;
  text << in.rdbuf();
  if (text.str().empty()) return invalid_argument("--chat-template-file " + path + " is empty");
  return text.str();
}

Result<std::string> named_template(const std::string& name_or_text) {
  if (looks_like_template(name_or_text)) return name_or_text;
  if (name_or_text == "chatml") return std::string(chat::chatml_template_source());
  return invalid_argument("--chat-template " + name_or_text +
                          ": not a template (no {{ or {%) nor a built-in name (chatml); "
                          "for a template in a file, use --chat-template-file");
}

}  // namespace

Result<std::optional<std::string>> chosen_template_source(const ChatTemplateChoice& choice) {
  if (choice.file.empty() && choice.name_or_text.empty()) return std::optional<std::string>();
  if (!choice.file.empty() && !choice.name_or_text.empty()) {
    return invalid_argument("give --chat-template or --chat-template-file, not both");
  }
  std::string option = choice.file.empty() ? "--chat-template" : "--chat-template-file";
  INGOT_ASSIGN_OR_RETURN(std::string source, choice.file.empty()
                                                 ? named_template(choice.name_or_text)
                                                 : read_template_file(choice.file));
  Result<chat::ChatTemplate> parsed = chat::ChatTemplate::parse(source);
  if (!parsed.ok()) {
    Error error = parsed.error();
    error.add_context(option + ": the template does not parse");
    return error;
  }
  return std::optional<std::string>(std::move(source));
}

}  // namespace ingot::cli
