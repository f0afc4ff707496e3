#pragma once
// The ChatML template, used for models whose GGUF carries no chat template
// (as llama-server does).

#include <string_view>

#include "chat/chat_template.h"

namespace ingot::chat {

std::string_view chatml_template_source();
const ChatTemplate& chatml_template();

}  // namespace ingot::chat
