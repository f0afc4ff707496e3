#include "chat/tool_calls/call_format.h"

#include <map>

namespace ingot::chat::tool_calls {
namespace {

using Piece = HeaderPiece;
using Kind = HeaderPiece::Kind;

constexpr Piece kName{Kind::kName, ""};

Piece literal(std::string_view text) {
  return {Kind::kLiteral, text};
}
Piece skip_to(std::string_view text) {
  return {Kind::kSkipTo, text};
}

// <function=NAME><parameter=KEY>VALUE</parameter></function>, in Qwen3-Coder's
// and Seed-OSS's sections.
CallFormat function_parameter_format(std::string_view section_open, std::string_view section_close,
                                     bool newline_padded) {
  CallFormat format;
  format.section_open = section_open;
  format.section_close = section_close;
  format.call_open = "<function=";
  format.header = {kName, literal(">")};
  format.arguments = ArgumentsForm::kTagged;
  format.tagged = {"<parameter=", ">", "", "", "</parameter>", newline_padded};
  format.call_close = {"</function>"};
  return format;
}

CallFormat glm_format() {
  CallFormat format;
  format.call_open = "<tool_call>";
  format.header = {kName};
  format.arguments = ArgumentsForm::kTagged;
  format.tagged = {"<arg_key>", "</arg_key>", "", "<arg_value>", "</arg_value>", false};
  format.call_close = {"</tool_call>"};
  return format;
}

CallFormat hunyuan_format() {
  CallFormat format;
  format.section_open = "<tool_calls:opensource>";
  format.section_close = "</tool_calls:opensource>";
  format.call_open = "<tool_call:opensource>";
  format.header = {kName, literal("<tool_sep:opensource>")};
  format.arguments = ArgumentsForm::kTagged;
  format.tagged = {"<arg_key:opensource>",   "</arg_key:opensource>",   "",
                   "<arg_value:opensource>", "</arg_value:opensource>", false};
  format.call_close = {"</tool_call:opensource>"};
  return format;
}

CallFormat minimax_m2_format() {
  CallFormat format;
  format.section_open = "<minimax:tool_call>";
  format.section_close = "</minimax:tool_call>";
  format.call_open = "<invoke name=\"";
  format.header = {kName, literal("\">")};
  format.arguments = ArgumentsForm::kTagged;
  format.tagged = {"<parameter name=\"", "\">", "", "", "</parameter>", false};
  format.call_close = {"</invoke>"};
  return format;
}

CallFormat dsml_format(std::string_view section_open, std::string_view section_close) {
  CallFormat format;
  format.section_open = section_open;
  format.section_close = section_close;
  format.call_open = "<｜DSML｜invoke name=\"";
  format.header = {kName, literal("\">")};
  format.arguments = ArgumentsForm::kTagged;
  format.tagged = {"<｜DSML｜parameter name=\"", "\"", ">", "", "</｜DSML｜parameter>", false};
  format.call_close = {"</｜DSML｜invoke>"};
  return format;
}

CallFormat minicpm_format() {
  CallFormat format;
  format.call_open = "<function name=\"";
  format.header = {kName, literal("\">")};
  format.arguments = ArgumentsForm::kTagged;
  format.tagged = {"<param name=\"", "\">", "", "", "</param>", false};
  format.call_close = {"</function>"};
  return format;
}

CallFormat functionary_v31_format() {
  CallFormat format;
  format.call_open = "<function=";
  format.header = {kName, literal(">")};
  format.call_close = {"</function>"};
  return format;
}

CallFormat functionary_v32_format() {
  CallFormat format;
  format.call_open = ">>>";
  format.header = {kName};
  format.content_name = "all";
  format.opens_reply = true;
  return format;
}

CallFormat deepseek_format(bool r1) {
  CallFormat format;
  format.section_open = "<｜tool▁calls▁begin｜>";
  format.section_close = "<｜tool▁calls▁end｜>";
  format.call_open = "<｜tool▁call▁begin｜>";
  if (r1) {
    format.header = {literal("function"), literal("<｜tool▁sep｜>"), kName, literal("```json")};
    format.call_close = {"```", "<｜tool▁call▁end｜>"};
  } else {
    format.header = {kName, literal("<｜tool▁sep｜>")};
    format.call_close = {"<｜tool▁call▁end｜>"};
  }
  return format;
}

CallFormat kimi_format() {
  CallFormat format;
  format.section_open = "<|tool_calls_section_begin|>";
  format.section_close = "<|tool_calls_section_end|>";
  format.call_open = "<|tool_call_begin|>";
  format.header = {literal("functions."), kName, skip_to("<|tool_call_argument_begin|>")};
  format.skipped_text = ":0";
  format.call_close = {"<|tool_call_end|>"};
  return format;
}

CallFormat solar_format() {
  CallFormat format;
  format.section_open = "<|tool_calls|>";
  format.call_open = "<|tool_call:begin|>";
  format.header = {skip_to("<|tool_call:name|>"), kName, literal("<|tool_call:args|>")};
  format.call_close = {"<|tool_call:end|>"};
  return format;
}

CallFormat gemma4_format() {
  CallFormat format;
  format.call_open = "<|tool_call>";
  format.header = {literal("call:"), kName};
  format.arguments = ArgumentsForm::kGemma;
  format.call_close = {"<tool_call|>"};
  return format;
}

// A marker, then a body that names its calls, then an optional close.
CallFormat self_named_format(std::string_view open, ArgumentsForm form, std::string_view close,
                             bool single_call = false) {
  CallFormat format;
  format.call_open = open;
  format.arguments = form;
  if (!close.empty()) format.call_close = {close};
  format.single_call = single_call;
  return format;
}

CallFormat command_r_plus_format() {
  CallFormat format = self_named_format("Action:", ArgumentsForm::kJsonCallList, "```");
  format.header = {literal("```json")};
  format.name_key = "tool_name";
  format.arguments_key = "parameters";
  return format;
}

CallFormat command_r7b_format() {
  CallFormat format =
      self_named_format("<|START_ACTION|>", ArgumentsForm::kJsonCallList, "<|END_ACTION|>");
  format.name_key = "tool_name";
  format.arguments_key = "parameters";
  return format;
}

std::map<ToolCallFamily, CallFormat> make_formats() {
  using F = ToolCallFamily;
  using A = ArgumentsForm;
  return {
      {F::kQwen3Coder, function_parameter_format("<tool_call>", "</tool_call>", true)},
      {F::kSeedOss, function_parameter_format("<seed:tool_call>", "</seed:tool_call>", false)},
      {F::kGlm, glm_format()},
      {F::kHunyuan, hunyuan_format()},
      {F::kMiniMaxM2, minimax_m2_format()},
      {F::kDeepSeekDsml, dsml_format("<｜DSML｜function_calls>", "</｜DSML｜function_calls>")},
      {F::kDeepSeekV4Dsml, dsml_format("<｜DSML｜tool_calls>", "</｜DSML｜tool_calls>")},
      {F::kMiniCpm, minicpm_format()},
      {F::kFunctionaryV31, functionary_v31_format()},
      {F::kFunctionaryV32, functionary_v32_format()},
      {F::kDeepSeekR1, deepseek_format(true)},
      {F::kDeepSeekV31, deepseek_format(false)},
      {F::kKimiK2, kimi_format()},
      {F::kSolarOpen, solar_format()},
      {F::kGemma4, gemma4_format()},
      {F::kGigaChat31, self_named_format("<|function_call|>", A::kJsonCall, "", true)},
      {F::kGigaChat3, self_named_format("function call<|role_sep|>", A::kJsonCall, "", true)},
      {F::kApriel, self_named_format("<tool_calls>", A::kJsonCallList, "</tool_calls>")},
      {F::kNemotronV2, self_named_format("<TOOLCALL>", A::kJsonCallList, "</TOOLCALL>")},
      {F::kCommandR7b, command_r7b_format()},
      {F::kApertus, self_named_format("<|tools_prefix|>", A::kNameKeyedList, "<|tools_suffix|>")},
      {F::kPythonicList,
       self_named_format("<|tool_call_start|>", A::kPythonCallList, "<|tool_call_end|>")},
      {F::kGranite3, self_named_format("<|tool_call|>", A::kJsonCallList, "")},
      {F::kCommandRPlus, command_r_plus_format()},
  };
}

}  // namespace

const CallFormat* call_format(ToolCallFamily family) {
  static const std::map<ToolCallFamily, CallFormat> kFormats = make_formats();
  auto found = kFormats.find(family);
  return found == kFormats.end() ? nullptr : &found->second;
}

}  // namespace ingot::chat::tool_calls
