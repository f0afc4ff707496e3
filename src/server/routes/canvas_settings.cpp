#include "server/routes/canvas_settings.h"

#include <string>

namespace ingot::server {
namespace {

constexpr const char* kCanvasReason =
    " does not apply to a diffusion model, which chooses a canvas of tokens at a time";

ApiError refused(const std::string& field, const char* why = kCanvasReason) {
  return invalid_request("'" + field + "'" + why + ".", field);
}

// The first field the request sets that a canvas cannot honour.
std::optional<ApiError> inapplicable_field(const GenerationFields& request,
                                           const StructuredOutputFields& structured) {
  if (request.logprobs) return refused("logprobs");
  if (!request.logit_bias.empty()) return refused("logit_bias");
  if (request.min_p) return refused("min_p");
  if (request.repetition_penalty && *request.repetition_penalty != 1.0f) {
    return refused("repetition_penalty");
  }
  if (request.frequency_penalty && *request.frequency_penalty != 0.0f) {
    return refused("frequency_penalty");
  }
  if (request.presence_penalty && *request.presence_penalty != 0.0f) {
    return refused("presence_penalty");
  }
  if (request.ignore_eos) return refused("ignore_eos");
  if (request.lora && !request.lora->empty()) return refused("lora");
  constexpr const char* kGrammarReason =
      " needs a grammar over one token after another, which a diffusion model's canvases do not "
      "follow";
  if (structured.response_format.kind != ResponseFormat::Kind::kText) {
    return refused("response_format", kGrammarReason);
  }
  if (structured.grammar) return refused("grammar", kGrammarReason);
  if (!structured.tools.empty() && structured.tool_choice.mode != ToolChoice::Mode::kNone) {
    return refused("tools", kGrammarReason);
  }
  return std::nullopt;
}

}  // namespace

std::variant<std::optional<sampling::DenoiserParams>, ApiError> canvas_settings_for(
    const GenerationFields& request, const StructuredOutputFields& structured,
    const std::optional<sampling::DenoiserParams>& model_canvas, uint64_t seed) {
  if (!model_canvas) {
    constexpr const char* kNotDiffusion = " applies to a diffusion model only";
    if (request.diffusion_steps) return refused("diffusion_steps", kNotDiffusion);
    if (request.diffusion_entropy_bound) return refused("diffusion_entropy_bound", kNotDiffusion);
    return std::nullopt;
  }
  if (auto error = inapplicable_field(request, structured)) return *error;
  sampling::DenoiserParams params = *model_canvas;
  // The reference seeds std::mt19937 with a 32-bit seed.
  params.seed = static_cast<uint32_t>(seed);
  if (request.diffusion_steps) params.max_steps = *request.diffusion_steps;
  if (request.diffusion_entropy_bound) params.entropy_bound = *request.diffusion_entropy_bound;
  if (request.temperature) params.temperature = *request.temperature;
  if (request.top_k) params.top_k = *request.top_k;
  if (request.top_p) params.top_p = *request.top_p;
  return std::optional<sampling::DenoiserParams>(params);
}

}  // namespace ingot::server
