#pragma once
// The chat template a user names on the command line in place of the one
// a GGUF file carries (`--chat-template-file FILE`, `--chat-template
// NAME_OR_TEXT`, as llama-server), for files whose own template is wrong or
// missing.

#include <optional>
#include <string>

#include "util/status.h"

namespace ingot::cli {

struct ChatTemplateChoice {
  std::string file;          // --chat-template-file
  std::string name_or_text;  // --chat-template: a built-in name or a template's text
};

// The chosen template's source, checked to parse; nullopt when neither
// option is given (the file's own template is used).
Result<std::optional<std::string>> chosen_template_source(const ChatTemplateChoice& choice);

}  // namespace ingot::cli
