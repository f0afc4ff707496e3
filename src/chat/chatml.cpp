#include "chat/chatml.h"

namespace ingot::chat {

std::string_view chatml_template_source() {
  return "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + "
         "message['content'] + '<|im_end|>' + '\\n' }}{% endfor %}"
         "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";
}

const ChatTemplate& chatml_template() {
  static const ChatTemplate chatml =
      std::move(ChatTemplate::parse(chatml_template_source())).value();
  return chatml;
}

}  // namespace ingot::chat
