#include "chat/tool_calls/call_format.h"

#include <map>

namespace ingot::chat::tool_calls {
namespace {

using A = ArgumentsForm;
using F = ToolCallFamily;
using Kind = HeaderPiece::Kind;

constexpr HeaderPiece kName{Kind::kName, ""};

HeaderPiece literal(std::string_view text) {
  return {Kind::kLiteral, text};
}
HeaderPiece skip_to(std::string_view text) {
  return {Kind::kSkipTo, text};
}

// <function=NAME><parameter=KEY>VALUE</parameter></function>, inside
// Qwen3-Coder's and Seed-OSS's sections.
CallFormat function_parameter(std::string_view section_open, std::string_view section_close,
                              bool newline_padded) {
  return {.section_open = section_open,
          .section_close = section_close,
          .call_open = "<function=",
          .header = {kName, literal(">")},
          .arguments = A::kTagged,
          .tagged = {"<parameter=", ">", "", "", "</parameter>", newline_padded},
          .call_close = {"</function>"}};
}

// DeepSeek V3.2's and V4's invoke blocks, inside their sections.
CallFormat dsml(std::string_view section_open, std::string_view section_close) {
  return {.section_open = section_open,
          .section_close = section_close,
          .call_open = "<｜DSML｜invoke name=\"",
          .header = {kName, literal("\">")},
          .arguments = A::kTagged,
          .tagged = {"<｜DSML｜parameter name=\"", "\"", ">", "", "</｜DSML｜parameter>", false},
          .call_close = {"</｜DSML｜invoke>"}};
}

std::map<ToolCallFamily, CallFormat> make_formats() {
  return {
      {F::kQwen3Coder, function_parameter("<tool_call>", "</tool_call>", true)},
      {F::kSeedOss, function_parameter("<seed:tool_call>", "</seed:tool_call>", false)},
      {F::kGlm,
       {.call_open = "<tool_call>",
        .header = {kName},
        .arguments = A::kTagged,
        .tagged = {"<arg_key>", "</arg_key>", "", "<arg_value>", "</arg_value>", false},
        .call_close = {"</tool_call>"}}},
      {F::kHunyuan,
       {.section_open = "<tool_calls:opensource>",
        .section_close = "</tool_calls:opensource>",
        .call_open = "<tool_call:opensource>",
        .header = {kName, literal("<tool_sep:opensource>")},
        .arguments = A::kTagged,
        .tagged = {"<arg_key:opensource>", "</arg_key:opensource>", "", "<arg_value:opensource>",
                   "</arg_value:opensource>", false},
        .call_close = {"</tool_call:opensource>"}}},
      {F::kMiniMaxM2,
       {.section_open = "<minimax:tool_call>",
        .section_close = "</minimax:tool_call>",
        .call_open = "<invoke name=\"",
        .header = {kName, literal("\">")},
        .arguments = A::kTagged,
        .tagged = {"<parameter name=\"", "\">", "", "", "</parameter>", false},
        .call_close = {"</invoke>"}}},
      {F::kMiniMaxM3,
       {.section_open = "]<]minimax[>[<tool_call>",
        .section_close = "]<]minimax[>[</tool_call>",
        .call_open = "]<]minimax[>[<invoke name=\"",
        .header = {kName, literal("\">")},
        .arguments = A::kElements,
        .element_marker = "]<]minimax[>[",
        .call_close = {"]<]minimax[>[</invoke>"}}},
      {F::kDeepSeekDsml, dsml("<｜DSML｜function_calls>", "</｜DSML｜function_calls>")},
      {F::kDeepSeekV4Dsml, dsml("<｜DSML｜tool_calls>", "</｜DSML｜tool_calls>")},
      {F::kMiniCpm,
       {.call_open = "<function name=\"",
        .header = {kName, literal("\">")},
        .arguments = A::kTagged,
        .tagged = {"<param name=\"", "\">", "", "", "</param>", false},
        .call_close = {"</function>"}}},
      {F::kFunctionaryV31,
       {.call_open = "<function=", .header = {kName, literal(">")}, .call_close = {"</function>"}}},
      {F::kFunctionaryV32,
       {.call_open = ">>>", .header = {kName}, .content_name = "all", .opens_reply = true}},
      {F::kDeepSeekR1,
       {.section_open = "<｜tool▁calls▁begin｜>",
        .section_close = "<｜tool▁calls▁end｜>",
        .call_open = "<｜tool▁call▁begin｜>",
        .header = {literal("function"), literal("<｜tool▁sep｜>"), kName, literal("```json")},
        .call_close = {"```", "<｜tool▁call▁end｜>"}}},
      {F::kDeepSeekV31,
       {.section_open = "<｜tool▁calls▁begin｜>",
        .section_close = "<｜tool▁calls▁end｜>",
        .call_open = "<｜tool▁call▁begin｜>",
        .header = {kName, literal("<｜tool▁sep｜>")},
        .call_close = {"<｜tool▁call▁end｜>"}}},
      {F::kKimiK2,
       {.section_open = "<|tool_calls_section_begin|>",
        .section_close = "<|tool_calls_section_end|>",
        .call_open = "<|tool_call_begin|>",
        .header = {literal("functions."), kName, skip_to("<|tool_call_argument_begin|>")},
        .call_close = {"<|tool_call_end|>"},
        .skipped_text = ":0"}},
      {F::kSolarOpen,
       {.section_open = "<|tool_calls|>",
        .call_open = "<|tool_call:begin|>",
        .header = {skip_to("<|tool_call:name|>"), kName, literal("<|tool_call:args|>")},
        .call_close = {"<|tool_call:end|>"}}},
      {F::kGemma4,
       {.call_open = "<|tool_call>",
        .header = {literal("call:"), kName},
        .arguments = A::kGemma,
        .call_close = {"<tool_call|>"}}},
      {F::kGigaChat31,
       {.call_open = "<|function_call|>", .arguments = A::kJsonCall, .single_call = true}},
      {F::kGigaChat3,
       {.call_open = "function call<|role_sep|>", .arguments = A::kJsonCall, .single_call = true}},
      {F::kApriel,
       {.call_open = "<tool_calls>",
        .arguments = A::kJsonCallList,
        .call_close = {"</tool_calls>"}}},
      {F::kNemotronV2,
       {.call_open = "<TOOLCALL>", .arguments = A::kJsonCallList, .call_close = {"</TOOLCALL>"}}},
      {F::kCommandR7b,
       {.call_open = "<|START_ACTION|>",
        .arguments = A::kJsonCallList,
        .call_close = {"<|END_ACTION|>"},
        .name_key = "tool_name",
        .arguments_key = "parameters"}},
      {F::kCommandRPlus,
       {.call_open = "Action:",
        .header = {literal("```json")},
        .arguments = A::kJsonCallList,
        .call_close = {"```"},
        .name_key = "tool_name",
        .arguments_key = "parameters"}},
      {F::kApertus,
       {.call_open = "<|tools_prefix|>",
        .arguments = A::kNameKeyedList,
        .call_close = {"<|tools_suffix|>"}}},
      {F::kPythonicList,
       {.call_open = "<|tool_call_start|>",
        .arguments = A::kPythonCallList,
        .call_close = {"<|tool_call_end|>"}}},
      {F::kGranite3, {.call_open = "<|tool_call|>", .arguments = A::kJsonCallList}},
  };
}

}  // namespace

bool names_itself(ArgumentsForm form) {
  return form == A::kJsonCall || form == A::kJsonCallList || form == A::kNameKeyedList ||
         form == A::kPythonCallList;
}

const CallFormat* call_format(ToolCallFamily family) {
  static const std::map<ToolCallFamily, CallFormat> kFormats = make_formats();
  auto found = kFormats.find(family);
  return found == kFormats.end() ? nullptr : &found->second;
}

}  // namespace ingot::chat::tool_calls
