#pragma once
// The developer role (OpenAI's name for instructions above the user's,
// which the Responses API and coding agents send) for templates that do
// not know it: most render only system, user, assistant and tool, and
// drop or reject any other role. Such templates get it as system, as
// llama-server gives it; templates that name it (gpt-oss, Gemma 4) get it
// as it is.

#include <nlohmann/json.hpp>
#include <string_view>

namespace ingot::chat {

// Whether the template's source names the developer role as a string.
bool template_reads_developer_role(std::string_view template_source);

// The messages with every developer turn made a system turn.
nlohmann::ordered_json developer_as_system(nlohmann::ordered_json messages);

}  // namespace ingot::chat
