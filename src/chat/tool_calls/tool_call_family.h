#pragma once
// Which syntax a model writes its tool calls in, read from its chat
// template (the template renders past calls the way the model was trained
// to write them), and what a template without tool support needs instead.

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace ingot::chat::tool_calls {

enum class ToolCallFamily {
  // No known syntax: a reply that is only {"name", "arguments"} or
  // {"tool_calls": [{"name", "arguments"}, ...]}.
  kGeneric,
  // Qwen 2.5/3, QwQ, Hermes 2/3, Granite 4 and others:
  // <tool_call>\n{"name": ..., "arguments": {...}}\n</tool_call>, repeated.
  kHermes,
  // Llama 3.1/3.2/3.3: {"name": ..., "parameters": {...}} as the reply,
  // optionally after <|python_tag|>; <|python_tag|> followed by code or a
  // builtin tool's name.call(key="value").
  kLlama3,
  // Mistral Nemo and older: [TOOL_CALLS][{"name", "arguments", "id"?}, ...].
  kMistralArray,
  // Mistral Small 3.2, Devstral, Ministral 3: [TOOL_CALLS]name[ARGS]{...},
  // repeated (an optional [CALL_ID]id before [ARGS]).
  kMistralTagged,
  // gpt-oss (harmony): a commentary message to functions.NAME whose body is
  // the arguments' JSON, which the engine's HarmonyChannels passes on as
  // to=functions.NAME<|message|>{...}.
  kHarmony,

  // The families below are written once, as data (call_format.h).
  // Qwen3-Coder, Qwen3.5, Nemotron 3, StepFun: <tool_call>\n<function=NAME>
  // \n<parameter=KEY>\nVALUE\n</parameter>...</function>\n</tool_call>.
  kQwen3Coder,
  // Seed-OSS: <seed:tool_call><function=NAME><parameter=KEY>VALUE</parameter>...
  kSeedOss,
  // GLM 4.5-4.7, Laguna: <tool_call>NAME<arg_key>K</arg_key><arg_value>V</arg_value>...
  kGlm,
  // Tencent Hy: GLM's tags with :opensource, inside <tool_calls:opensource>.
  kHunyuan,
  // MiniMax M2: <minimax:tool_call><invoke name="NAME"><parameter name="K">V</parameter>...
  kMiniMaxM2,
  // MiniMax M3: M<tool_call>\nM<invoke name="NAME">M<KEY>VALUE M</KEY>...M</invoke>\n
  // M</tool_call>, M its marker ]<]minimax[>[; objects and arrays as
  // nested elements (<item> for each array element).
  kMiniMaxM3,
  // DeepSeek V3.2: <｜DSML｜function_calls><｜DSML｜invoke name="NAME">
  // <｜DSML｜parameter name="K" string="true|false">V</｜DSML｜parameter>...
  kDeepSeekDsml,
  // DeepSeek V4: the same inside <｜DSML｜tool_calls>.
  kDeepSeekV4Dsml,
  // MiniCPM: <function name="NAME"><param name="K">V</param></function>.
  kMiniCpm,
  // Functionary v3.1: <function=NAME>{...}</function>.
  kFunctionaryV31,
  // Functionary v3.2: >>>NAME\n{...}, the first >>> written by the prompt;
  // >>>all\n begins plain text.
  kFunctionaryV32,
  // DeepSeek R1: <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME
  // \n```json\n{...}\n```<｜tool▁call▁end｜>...<｜tool▁calls▁end｜>.
  kDeepSeekR1,
  // DeepSeek V3.1: <｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{...}<｜tool▁call▁end｜>.
  kDeepSeekV31,
  // Kimi K2: <|tool_calls_section_begin|><|tool_call_begin|>functions.NAME:IDX
  // <|tool_call_argument_begin|>{...}<|tool_call_end|>...
  kKimiK2,
  // Solar Open:
  // <|tool_call:begin|>ID<|tool_call:name|>NAME<|tool_call:args|>{...}<|tool_call:end|>.
  kSolarOpen,
  // Gemma 4: <|tool_call>call:NAME{key:<|"|>text<|"|>,n:2}<tool_call|>.
  kGemma4,
  // GigaChat 3.1: <|function_call|>{"name", "arguments"}.
  kGigaChat31,
  // GigaChat 3: function call<|role_sep|>\n{"name", "arguments"}.
  kGigaChat3,
  // Apriel: <tool_calls>[{"name", "arguments"}, ...]</tool_calls>.
  kApriel,
  // Nemotron Nano v2: <TOOLCALL>[{"name", "arguments"}, ...]</TOOLCALL>.
  kNemotronV2,
  // Command R7B, Cohere 2: <|START_ACTION|>[{"tool_call_id", "tool_name",
  // "parameters"}, ...]<|END_ACTION|>.
  kCommandR7b,
  // Apertus: <|tools_prefix|>[{"NAME": {...}}, ...]<|tools_suffix|>.
  kApertus,
  // LFM2, LFM2.5: <|tool_call_start|>[name(key=value, ...), ...]<|tool_call_end|>.
  kPythonicList,
  // Granite 3.3: <|tool_call|>[{"name", "arguments"}, ...].
  kGranite3,
  // Command R+: Action:\n```json\n[{"tool_name", "parameters"}, ...]\n```.
  kCommandRPlus,
};

// Every family, in declaration order (for tests and documentation).
const std::vector<ToolCallFamily>& all_tool_call_families();

std::string_view family_name(ToolCallFamily family);

ToolCallFamily detect_tool_call_family(std::string_view template_source);

// Whether the template renders the `tools` variable itself. When it does
// not, the caller describes the tools in a system message
// (generic_tool_system_prompt) and parses replies as kGeneric.
bool template_renders_tools(std::string_view template_source);

// The system text describing `tools` (OpenAI's [{"type": "function",
// "function": {name, description, parameters}}]) and the kGeneric reply
// format, for templates that do not render tools.
std::string generic_tool_system_prompt(const nlohmann::ordered_json& tools);

// `messages` with generic_tool_system_prompt(tools) added: appended to a
// leading system message, or as a new first system message.
nlohmann::ordered_json with_generic_tool_prompt(const nlohmann::ordered_json& messages,
                                                const nlohmann::ordered_json& tools);

}  // namespace ingot::chat::tool_calls
