#include "engine/request_handle.h"

namespace ingot::engine {

CollectedReply collect_reply(RequestHandle handle) {
  CollectedReply reply;
  for (;;) {
    Event event = handle.next();
    if (auto* text = std::get_if<TextEvent>(&event)) {
      reply.content += text->content;
      reply.reasoning += text->reasoning;
      for (auto& token : text->tokens) reply.tokens.push_back(std::move(token));
    } else if (auto* finish = std::get_if<FinishEvent>(&event)) {
      reply.finish = *finish;
      return reply;
    } else {
      reply.error = std::get<ErrorEvent>(event).error;
      return reply;
    }
  }
}

}  // namespace ingot::engine
