#pragma once
// The ChatML template, used for models whose GGUF carries no chat template
// (as llama-server does).

#include "chat/chat_template.h"

namespace ingot::chat {

const ChatTemplate& chatml_template();

}  // namespace ingot::chat
