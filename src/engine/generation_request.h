#pragma once
// What a caller asks the engine for, and the events it gets back.

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "engine/reasoning_splitter.h"
#include "model/lora_adapter.h"
#include "model/model_config.h"
#include "model/pooling.h"
#include "sampling/canvas_denoiser.h"
#include "sampling/params.h"
#include "sampling/sampler.h"
#include "util/status.h"

namespace ingot::engine {

// How an embedding request pools the prompt's final hidden states.
using Pooling = model::Pooling;

// A diffusion model's canvas settings before a request's own: its file's
// sampler keys (model::DiffusionConfig).
inline sampling::DenoiserParams canvas_defaults(const model::DiffusionConfig& diffusion) {
  sampling::DenoiserParams params;
  params.max_steps = diffusion.max_steps;
  params.t_min = diffusion.t_min;
  params.t_max = diffusion.t_max;
  params.entropy_bound = diffusion.entropy_bound;
  params.stability_steps = diffusion.stability_steps;
  params.confidence = diffusion.confidence;
  return params;
}

struct GenerationRequest {
  std::vector<int32_t> prompt;  // rendered and tokenized by the caller
  sampling::SamplingParams sampling;
  int32_t max_tokens = -1;  // -1: until the context is full; 0: score the prompt only
  // Score the prompt: each prompt token's log-probability given the ones
  // before it, with this many alternatives (-1: do not). The whole prompt
  // is then run, none of it reused from the cache.
  int32_t prompt_logprobs = -1;
  std::vector<std::string> stop;
  // Split the reply into reasoning and content at these tags.
  std::optional<ReasoningTags> reasoning;
  bool prompt_opens_reasoning = false;  // the prompt ends inside the reasoning block
  // Reasoning tokens before the close tag is forced and the answer begins;
  // -1: no limit.
  int32_t reasoning_budget = -1;
  // An embedding: the prompt is run whole (none of it reused from the
  // cache), nothing is sampled (max_tokens must be 0), and the finish
  // carries the pooled hidden state, not normalized (kRank: the model's
  // rank head's scores, the relevance first).
  std::optional<Pooling> pooling;
  // A diffusion model's request (DiffusionGemma): its reply is denoised a
  // canvas at a time with these settings instead of sampled token by
  // token; `sampling` then serves only its seed.
  std::optional<sampling::DenoiserParams> canvas;
  // LoRA adapters to run with, each at its scale (the caller keeps them
  // loaded while the request runs). Its cached prefix is its own: it
  // reuses only what the same adapters at the same scales computed.
  model::LoraSet lora;
};

// A generated token with what logprobs report of it.
struct GeneratedToken {
  int32_t id;
  std::string piece;  // the token's bytes (maybe part of a character)
  float logprob = 0.0f;
  std::vector<sampling::TokenLogprob> top;
  bool has_logprob = true;  // false for a prompt's first token: nothing precedes it
};

// Newly complete text. Either string may be empty; tokens are those
// sampled since the last event, whether or not their text is out yet.
struct TextEvent {
  std::string content;
  std::string reasoning;
  std::vector<GeneratedToken> tokens;
  // This event carries the scored prompt (prompt_logprobs), before any
  // generated token; its text is the caller's own prompt, so none is sent.
  bool prompt = false;
};

enum class FinishReason { kStop, kLength, kCancelled };

struct Usage {
  int64_t prompt_tokens = 0;
  int64_t completion_tokens = 0;
  int64_t cached_tokens = 0;  // prompt tokens reused from the slot's cache
  // Completion tokens spent inside the template's thinking tags.
  int64_t reasoning_tokens = 0;
  double time_to_first_token_ms = 0;
  double total_ms = 0;
};

struct FinishEvent {
  FinishReason reason;
  Usage usage;
  // The request's stop string that ended the reply, when one did.
  std::optional<std::string> stop_sequence;
  // An embedding request's pooled hidden state (GenerationRequest::pooling).
  std::vector<float> embedding;
};

struct ErrorEvent {
  Error error;
};

using Event = std::variant<TextEvent, FinishEvent, ErrorEvent>;

}  // namespace ingot::engine
