#include "chat/message_roles.h"

namespace ingot::chat {

bool template_reads_developer_role(std::string_view template_source) {
  return template_source.find("'developer'") != std::string_view::npos ||
         template_source.find("\"developer\"") != std::string_view::npos;
}

nlohmann::ordered_json developer_as_system(nlohmann::ordered_json messages) {
  for (auto& message : messages) {
    auto role = message.find("role");
    if (role != message.end() && *role == "developer") *role = "system";
  }
  return messages;
}

}  // namespace ingot::chat
