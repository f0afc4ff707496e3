#include "server/routes/tool_call_reading.h"

namespace ingot::server {

chat::tool_calls::ToolCallIdGenerator ToolCallReading::ids(
    chat::tool_calls::ToolCallIdStyle dialect) const {
  namespace tools = chat::tool_calls;
  const bool mistral = family && tools::id_style_for(*family) == tools::ToolCallIdStyle::kMistral;
  return tools::ToolCallIdGenerator(id_seed, mistral ? tools::ToolCallIdStyle::kMistral : dialect);
}

chat::tool_calls::ParsedReply ToolCallReading::parse(
    const std::string& content, chat::tool_calls::ToolCallIdStyle dialect) const {
  if (family) return chat::tool_calls::parse_tool_calls(content, *family, ids(dialect), schemas);
  chat::tool_calls::ParsedReply reply;
  reply.content = content;
  return reply;
}

std::optional<chat::tool_calls::ToolCallStreamParser> ToolCallReading::stream_parser(
    chat::tool_calls::ToolCallIdStyle dialect) const {
  if (!family) return std::nullopt;
  return std::optional<chat::tool_calls::ToolCallStreamParser>(std::in_place, *family, ids(dialect),
                                                               schemas);
}

}  // namespace ingot::server
