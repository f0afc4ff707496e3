#pragma once
// What `serve`, `chat` and friends load from one GGUF file: the model, its
// tokenizer, its chat template (or none), and the special-token texts a
// template needs.

#include <memory>
#include <optional>
#include <string>

#include "chat/chat_template.h"
#include "chat/chatml.h"
#include "chat/tool_calls/tool_call_family.h"
#include "engine/reasoning_splitter.h"
#include "model/model.h"
#include "sampling/canvas_denoiser.h"
#include "tokenizer/tokenizer.h"
#include "util/status.h"

namespace ingot::cli {

// An error when the model does not generate token by token (DiffusionGemma
// denoises canvases), which `run` and `bench` need.
Status check_generates_token_by_token(const model::ModelConfig& config);

struct LoadedModel {
  std::unique_ptr<model::Model> model;
  std::unique_ptr<tokenizer::Tokenizer> tokenizer;
  // The model's own template; chat_template() falls back to ChatML.
  std::optional<chat::ChatTemplate> own_template;
  // The source of the template prompts are rendered with (ChatML's when
  // the model has none that parses).
  std::string template_source;
  std::string bos_text;
  std::string eos_text;
  // Set when the template thinks between <think> tags.
  std::optional<engine::ReasoningTags> reasoning_tags;
  // How the model writes tool calls, and whether its template shows it the
  // tools (else they are described in a system message). ChatML: neither.
  chat::tool_calls::ToolCallFamily tool_call_family = chat::tool_calls::ToolCallFamily::kGeneric;
  bool template_renders_tools = false;
  bool template_reads_developer_role = false;

  // `template_source`: a template to use in place of the file's own
  // (chat_template_choice.h), already checked to parse.
  static Result<LoadedModel> load(const std::string& path,
                                  const std::optional<std::string>& template_source = {});

  // A diffusion model's sampler defaults (the file's diffusion.* keys), its
  // requests' canvas settings before their own; none for any other model.
  std::optional<sampling::DenoiserParams> canvas_defaults() const;

  const chat::ChatTemplate& chat_template() const {
    return own_template ? *own_template : chat::chatml_template();
  }
};

}  // namespace ingot::cli
