#include "chat/tool_calls/tool_call_family.h"

#include <algorithm>
#include <cctype>

#include "chat/tool_calls/scan_rules.h"

namespace ingot::chat::tool_calls {
namespace {

bool contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

// `word` as a whole identifier somewhere in `text`.
bool contains_word(std::string_view text, std::string_view word) {
  for (size_t at = text.find(word); at != std::string_view::npos; at = text.find(word, at + 1)) {
    bool starts = at == 0 || !is_identifier_byte(text[at - 1]);
    size_t end = at + word.size();
    bool ends = end == text.size() || !is_identifier_byte(text[end]);
    if (starts && ends) return true;
  }
  return false;
}

// Templates that write <tool_call> but put XML-like arguments inside it
// (Qwen3-Coder, GLM, Nemotron) or a list (Apriel) are not Hermes.
bool is_hermes(std::string_view source) {
  if (!contains(source, "<tool_call>")) return false;
  if (contains(source, "<function=") || contains(source, "<arg_key>") ||
      contains(source, "<tool_calls>")) {
    return false;
  }
  return contains(source, "\"arguments\"") || contains(source, "\\\"arguments\\\"");
}

bool is_llama3(std::string_view source) {
  if (!contains(source, "<|start_header_id|>") || contains(source, "<function=")) return false;
  return contains(source, "<|python_tag|>") || contains(source, "\"parameters\"");
}

}  // namespace

namespace {

struct FamilyName {
  ToolCallFamily family;
  std::string_view name;
};

constexpr FamilyName kFamilyNames[] = {
    {ToolCallFamily::kGeneric, "generic"},
    {ToolCallFamily::kHermes, "hermes"},
    {ToolCallFamily::kLlama3, "llama3"},
    {ToolCallFamily::kMistralArray, "mistral-array"},
    {ToolCallFamily::kMistralTagged, "mistral-tagged"},
    {ToolCallFamily::kHarmony, "harmony"},
    {ToolCallFamily::kQwen3Coder, "qwen3-coder"},
    {ToolCallFamily::kSeedOss, "seed-oss"},
    {ToolCallFamily::kGlm, "glm"},
    {ToolCallFamily::kHunyuan, "hunyuan"},
    {ToolCallFamily::kMiniMaxM2, "minimax-m2"},
    {ToolCallFamily::kDeepSeekDsml, "deepseek-v3.2-dsml"},
    {ToolCallFamily::kDeepSeekV4Dsml, "deepseek-v4-dsml"},
    {ToolCallFamily::kMiniCpm, "minicpm"},
    {ToolCallFamily::kFunctionaryV31, "functionary-v3.1"},
    {ToolCallFamily::kFunctionaryV32, "functionary-v3.2"},
    {ToolCallFamily::kDeepSeekR1, "deepseek-r1"},
    {ToolCallFamily::kDeepSeekV31, "deepseek-v3.1"},
    {ToolCallFamily::kKimiK2, "kimi-k2"},
    {ToolCallFamily::kSolarOpen, "solar-open"},
    {ToolCallFamily::kGemma4, "gemma4"},
    {ToolCallFamily::kGigaChat31, "gigachat3.1"},
    {ToolCallFamily::kGigaChat3, "gigachat3"},
    {ToolCallFamily::kApriel, "apriel"},
    {ToolCallFamily::kNemotronV2, "nemotron-v2"},
    {ToolCallFamily::kCommandR7b, "command-r7b"},
    {ToolCallFamily::kApertus, "apertus"},
    {ToolCallFamily::kPythonicList, "pythonic"},
    {ToolCallFamily::kGranite3, "granite3"},
    {ToolCallFamily::kCommandRPlus, "command-r-plus"},
    // Last, so that the fuzz corpus's choices of the families before it hold.
    {ToolCallFamily::kMiniMaxM3, "minimax-m3"},
};

// Markers only one family's template writes, checked in order (a later
// family's marker may appear inside an earlier family's template).
struct Signature {
  ToolCallFamily family;
  std::vector<std::string_view> all_of;
};

const std::vector<Signature>& signatures() {
  static const std::vector<Signature> kSignatures = {
      {ToolCallFamily::kDeepSeekDsml, {"DSML", "invoke", "function_calls>"}},
      {ToolCallFamily::kDeepSeekV4Dsml, {"DSML", "invoke", "tool_calls>"}},
      {ToolCallFamily::kHunyuan, {"opensource", "arg_key"}},
      {ToolCallFamily::kMiniMaxM2, {"<minimax:tool_call>", "<invoke name="}},
      {ToolCallFamily::kMiniMaxM3, {"]<]minimax[>[", "<invoke name="}},
      {ToolCallFamily::kSeedOss, {"<seed:tool_call>", "<function=", "<parameter="}},
      {ToolCallFamily::kGlm, {"<tool_call>", "<arg_key>", "<arg_value>"}},
      {ToolCallFamily::kQwen3Coder, {"<tool_call>", "<function=", "<parameter="}},
      {ToolCallFamily::kMiniCpm, {"<function name=", "<param name="}},
      {ToolCallFamily::kFunctionaryV31, {"<function=", "</function>", "<|start_header_id|>"}},
      {ToolCallFamily::kFunctionaryV32, {">>>all", "<|start_header_id|>"}},
      {ToolCallFamily::kDeepSeekR1, {"tool▁call▁begin", "```json"}},
      {ToolCallFamily::kDeepSeekV31, {"tool▁call▁begin", "tool▁sep"}},
      {ToolCallFamily::kKimiK2, {"<|tool_call_begin|>", "<|tool_call_argument_begin|>"}},
      {ToolCallFamily::kSolarOpen, {"<|tool_call:begin|>", "<|tool_call:name|>"}},
      {ToolCallFamily::kGemma4, {"<|tool_call>", "call:"}},
      {ToolCallFamily::kGigaChat31, {"<|function_call|>"}},
      {ToolCallFamily::kGigaChat3, {"'function call'", "role_sep"}},
      {ToolCallFamily::kApertus, {"<|tools_prefix|>"}},
      {ToolCallFamily::kApriel, {"<tool_calls>["}},
      {ToolCallFamily::kNemotronV2, {"<TOOLCALL>"}},
      {ToolCallFamily::kCommandR7b, {"<|START_ACTION|>"}},
      {ToolCallFamily::kPythonicList, {"<|tool_call_start|>"}},
      // LFM2's templates that list the tools but leave the call syntax to the model.
      {ToolCallFamily::kPythonicList, {"<|im_start|>", "List of tools: ["}},
      {ToolCallFamily::kPythonicList, {"<|im_start|>", "List of tools: <|tool_list_start|>"}},
      {ToolCallFamily::kGranite3, {"<|tool_call|>", "JSON list"}},
      {ToolCallFamily::kCommandRPlus, {"Action:", "```json", "tool_name"}},
  };
  return kSignatures;
}

}  // namespace

std::string_view family_name(ToolCallFamily family) {
  for (const FamilyName& entry : kFamilyNames) {
    if (entry.family == family) return entry.name;
  }
  return "generic";
}

const std::vector<ToolCallFamily>& all_tool_call_families() {
  static const std::vector<ToolCallFamily> kAll = [] {
    std::vector<ToolCallFamily> all;
    for (const FamilyName& entry : kFamilyNames) all.push_back(entry.family);
    return all;
  }();
  return kAll;
}

ToolCallFamily detect_tool_call_family(std::string_view source) {
  if (contains(source, "[TOOL_CALLS]")) {
    return contains(source, "[ARGS]") ? ToolCallFamily::kMistralTagged
                                      : ToolCallFamily::kMistralArray;
  }
  if (contains(source, "<|channel|>commentary") && contains(source, "<|call|>")) {
    return ToolCallFamily::kHarmony;
  }
  for (const Signature& signature : signatures()) {
    bool all = std::all_of(signature.all_of.begin(), signature.all_of.end(),
                           [&](std::string_view marker) { return contains(source, marker); });
    if (all) return signature.family;
  }
  if (is_hermes(source)) return ToolCallFamily::kHermes;
  if (is_llama3(source)) return ToolCallFamily::kLlama3;
  return ToolCallFamily::kGeneric;
}

bool template_renders_tools(std::string_view source) {
  return contains_word(source, "tools");
}

std::string generic_tool_system_prompt(const nlohmann::ordered_json& tools) {
  std::string text =
      "You can call the following tools (functions). Each is described by a JSON object with "
      "its name, what it does and its parameters as a JSON Schema:\n";
  for (const auto& tool : tools) {
    const auto& function = tool.contains("function") ? tool["function"] : tool;
    text += function.dump();
    text += '\n';
  }
  text +=
      "\nTo call one or more tools, reply with only a JSON object of this form and nothing "
      "else:\n"
      "{\"tool_calls\": [{\"name\": \"<tool name>\", \"arguments\": {<the arguments as a JSON "
      "object>}}]}\n"
      "To answer without a tool, reply normally.";
  return text;
}

nlohmann::ordered_json with_generic_tool_prompt(const nlohmann::ordered_json& messages,
                                                const nlohmann::ordered_json& tools) {
  nlohmann::ordered_json result = messages;
  std::string prompt = generic_tool_system_prompt(tools);
  if (!result.empty() && result[0].value("role", "") == "system" &&
      result[0]["content"].is_string()) {
    result[0]["content"] = result[0]["content"].get<std::string>() + "\n\n" + prompt;
    return result;
  }
  result.insert(result.begin(), nlohmann::ordered_json{{"role", "system"}, {"content", prompt}});
  return result;
}

}  // namespace ingot::chat::tool_calls
