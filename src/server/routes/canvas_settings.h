#pragma once
// A request's settings for a diffusion model's reply (DiffusionGemma):
// the model's sampler defaults under the request's seed, diffusion_steps,
// diffusion_entropy_bound and its bounds on the exploration samples
// (temperature, top_p, top_k). The fields a canvas cannot honour are
// refused with a 400 naming the field and saying why, never ignored: the
// log-probabilities of tokens no one sampled, biases and penalties on
// tokens chosen a canvas at a time, and the grammars of response_format,
// grammar and tools, which constrain one token after another. On a model
// that generates token by token, the diffusion fields are refused.

#include <optional>
#include <variant>

#include "sampling/canvas_denoiser.h"
#include "server/api_error.h"
#include "server/openai/generation_fields.h"
#include "server/openai/structured_output_fields.h"

namespace ingot::server {

// `model_canvas`: the model's defaults, or none for a model that generates
// token by token (then the result is nullopt or a refusal). `seed`: the
// request's, resolved (a random one when it gave none).
std::variant<std::optional<sampling::DenoiserParams>, ApiError> canvas_settings_for(
    const GenerationFields& request, const StructuredOutputFields& structured,
    const std::optional<sampling::DenoiserParams>& model_canvas, uint64_t seed);

}  // namespace ingot::server
