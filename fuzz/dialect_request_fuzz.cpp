// A request body in the other dialects a client may speak: Anthropic's
// Messages (create and count_tokens) and OpenAI's Responses, each parsed
// as strict JSON and then translated into the chat request every dialect
// ends in.

#include <cstdint>
#include <string_view>

#include "fuzz_input.h"
#include "server/anthropic/messages_request.h"
#include "server/openai/json_body.h"
#include "server/responses/responses_request.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ingot::server;
  ingot::fuzz::FuzzInput input(data, size);
  const size_t dialect = input.choice(3);
  auto json = parse_json_body(input.rest());
  auto* value = std::get_if<nlohmann::ordered_json>(&json);
  if (value == nullptr) return 0;
  const RequestLimits limits{{"model", "alias"}, 4096};
  switch (dialect) {
    case 0:
      (void)anthropic::parse_messages_request(*value, limits, anthropic::MessagesCall::kCreate);
      break;
    case 1:
      (void)anthropic::parse_messages_request(*value, limits,
                                              anthropic::MessagesCall::kCountTokens);
      break;
    default: {
      // A continued conversation comes from the store; the fuzzed body's
      // own `input` stands in for it too.
      nlohmann::ordered_json prior = nlohmann::ordered_json::array();
      if (value->is_object() && value->contains("input") && (*value)["input"].is_array()) {
        prior = (*value)["input"];
      }
      (void)responses::read_previous_response_id(*value);
      (void)responses::parse_responses_request(*value, limits, prior);
      break;
    }
  }
  return 0;
}
