#include "chat/chatml.h"

namespace ingot::chat {

const ChatTemplate& chatml_template() {
  static const ChatTemplate chatml = std::move(ChatTemplate::parse(
      "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + "
      "message['content'] + '<|im_end|>' + '\\n' }}{% endfor %}"
      "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}")).value();
  return chatml;
}

}  // namespace ingot::chat
