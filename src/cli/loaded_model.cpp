#include "cli/loaded_model.h"

#include <spdlog/spdlog.h>

#include "chat/message_roles.h"
#include "engine/generation_request.h"

namespace ingot::cli {
namespace {

std::string special_text(const tokenizer::Tokenizer& tokenizer, int32_t id) {
  if (!tokenizer.vocab().contains(id)) return {};
  return tokenizer.token_to_piece(id, /*render_special=*/true);
}

// `generative`: whether the model chats at all (an encoder only embeds),
// and so whether a missing template is worth a warning.
std::optional<chat::ChatTemplate> load_chat_template(const std::string& source, bool generative) {
  if (source.empty()) {
    if (generative) spdlog::warn("the model has no chat template; chat prompts use ChatML");
    return std::nullopt;
  }
  auto parsed = chat::ChatTemplate::parse(source);
  if (!parsed.ok()) {
    spdlog::warn("the model's chat template does not parse ({}); chat prompts use ChatML",
                 parsed.error().describe());
    return std::nullopt;
  }
  return std::move(parsed).value();
}

}  // namespace

// A diffusion model's causal pass alone would answer token by token, which
// is not how it generates.
Status check_generates_token_by_token(const model::ModelConfig& config) {
  if (config.traits.diffusion) {
    return unsupported("DiffusionGemma generates by denoising canvases: serve it or chat with it");
  }
  return {};
}

std::optional<sampling::DenoiserParams> LoadedModel::canvas_defaults() const {
  const model::DiffusionConfig& diffusion = model->config().diffusion;
  if (diffusion.canvas_length <= 0) return std::nullopt;
  return engine::canvas_defaults(diffusion);
}

Result<LoadedModel> LoadedModel::load(const std::string& path,
                                      const std::optional<std::string>& template_source) {
  LoadedModel loaded;
  INGOT_ASSIGN_OR_RETURN(loaded.model, model::Model::load(path));
  INGOT_ASSIGN_OR_RETURN(tokenizer::Tokenizer tokenizer,
                         tokenizer::Tokenizer::from_gguf(loaded.model->file()));
  loaded.tokenizer = std::make_unique<tokenizer::Tokenizer>(std::move(tokenizer));
  std::string source = template_source.value_or(
      loaded.model->file().metadata().get_or<std::string>("tokenizer.chat_template", ""));
  loaded.own_template = load_chat_template(source, !loaded.model->config().traits.encoder);
  loaded.template_source =
      loaded.own_template ? source : std::string(chat::chatml_template_source());
  const auto& special = loaded.tokenizer->vocab().special_ids();
  loaded.bos_text = special_text(*loaded.tokenizer, special.bos);
  loaded.eos_text = special_text(*loaded.tokenizer, special.eos);
  if (loaded.own_template) {
    loaded.tool_call_family = chat::tool_calls::detect_tool_call_family(source);
    loaded.template_renders_tools = chat::tool_calls::template_renders_tools(source);
    loaded.template_reads_developer_role = chat::template_reads_developer_role(source);
  }
  loaded.reasoning_tags = engine::reasoning_tags_for_template(source);
  return loaded;
}

}  // namespace ingot::cli
