#pragma once
// Everything the routes need to answer: the served model's identity, its
// prompt format and capability, and what it shares with the server.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "chat/chat_template.h"
#include "chat/tool_calls/tool_call_family.h"
#include "engine/engine.h"
#include "model/lora_adapter.h"
#include "sampling/canvas_denoiser.h"
#include "sampling/params.h"
#include "server/admission_order.h"
#include "server/grammar_cache.h"
#include "server/metrics.h"
#include "server/prompt_preparation.h"
#include "server/responses/response_store.h"
#include "tokenizer/tokenizer.h"

namespace ingot::server {

struct ServingDefaults {
  sampling::SamplingParams sampling;  // for fields a request omits
  int32_t max_tokens = -1;            // -1: until the context is full
  int64_t max_tokens_cap = 32768;     // a request may not ask for more
};

// How many responses the Responses API keeps by default, and the bytes
// they may hold in all, whatever their number: a bound on memory that no
// sequence of requests can pass.
constexpr size_t kDefaultStoredResponses = 1024;
constexpr size_t kStoredResponseBytes = size_t{256} << 20;

// The served model's names, as requests give them and replies report them.
struct ModelIdentity {
  std::string model_id;
  std::vector<std::string> aliases;
  int64_t created = 0;
  std::string system_fingerprint;
  // LoRA adapters loaded with --lora, by id (their order), each with the
  // scale requests that do not name adapters run it at.
  struct ServedAdapter {
    std::shared_ptr<const model::LoraAdapter> adapter;
    float scale = 1.0f;
  };
  std::vector<ServedAdapter> lora_adapters;

  // The name a request's `model` gives to run with an adapter alone, as
  // the Kubernetes inference gateway routes: `model_id:adapter file stem`.
  std::string adapter_model_id(const ServedAdapter& served) const {
    return model_id + ":" + served.adapter->name();
  }
  // The adapter a model name stands for, or null.
  const ServedAdapter* adapter_named(const std::string& model) const {
    for (const ServedAdapter& served : lora_adapters) {
      if (adapter_model_id(served) == model) return &served;
    }
    return nullptr;
  }
  // Every name a request may give: the served id, its aliases, then its
  // adapters' names.
  std::vector<std::string> model_ids() const {
    std::vector<std::string> ids{model_id};
    ids.insert(ids.end(), aliases.begin(), aliases.end());
    for (const ServedAdapter& served : lora_adapters) ids.push_back(adapter_model_id(served));
    return ids;
  }
};

// How prompts are written for the model and its replies read: its
// tokenizer and chat template, and what the template does.
struct PromptFormat {
  const tokenizer::Tokenizer* tokenizer = nullptr;    // the model's; outlives the context
  const chat::ChatTemplate* chat_template = nullptr;  // the model's, or ChatML
  std::string bos_text;
  std::string eos_text;
  chat::tool_calls::ToolCallFamily tool_call_family = chat::tool_calls::ToolCallFamily::kGeneric;
  bool renders_tools = false;  // else tools go into a system message
  // Else developer turns are rendered as system turns (chat/message_roles.h).
  bool reads_developer_role = false;
  // Set when the template thinks between tags: replies are split into
  // reasoning_content and content.
  std::optional<engine::ReasoningTags> reasoning_tags;
  // The file's prompt for a (query, document) pair
  // (tokenizer.chat_template.rerank), when it has one.
  std::optional<std::string> rerank_template;
  // Control tokens written in messages become those tokens
  // (--allow-special-in-content); else they stay text (chat/special_text_guard.h).
  bool special_in_content = false;
  std::string chat_template_source;  // GET /props shows it
};

// Which routes the model answers. A generative model also embeds
// (--embeddings) or ranks (--reranking) when asked; an embedding or
// reranking model (its file names that pooling) serves that alone, and the
// generation routes refuse it, saying what it is for.
struct ModelCapability {
  enum class Purpose { kGenerate, kEmbed, kRerank };
  Purpose purpose = Purpose::kGenerate;
  // /v1/embeddings is served: how each input's hidden states are pooled,
  // and how many inputs a request may hold.
  std::optional<engine::Pooling> embedding_pooling;
  int64_t max_embedding_inputs = 2048;
  bool reranking = false;  // /v1/rerank is served (the model has a classification head)

  // A diffusion model's canvas settings (its sampler's defaults): its
  // replies are denoised a canvas at a time (routes/canvas_settings.h).
  std::optional<sampling::DenoiserParams> canvas;
  bool generates() const { return purpose == Purpose::kGenerate; }
};

// Everything the routes of one model need to answer: the model as above,
// and what it shares with the server (the engine, defaults, metrics,
// caches, the stored responses, readiness). The pointers are the server's,
// which outlive every request.
struct ServingContext {
  ModelIdentity identity;
  PromptFormat format;
  ModelCapability capability;

  engine::Engine* engine = nullptr;
  ServingDefaults defaults;
  std::chrono::milliseconds shutdown_grace{10'000};
  Metrics* metrics = nullptr;
  // response_format, grammar and tool-call grammars; a cache, so mutable
  // even in a context the routes only read.
  mutable GrammarCache grammars;
  // Where prompts are rendered and tokenized; null: on the I/O thread
  // itself (tests, and `--prompt-threads 0` to measure the difference).
  PromptPool* prompts = nullptr;
  // The Responses API's stored responses (`--responses-store`), shared by
  // every I/O thread, and by every model of `serve --models`.
  std::shared_ptr<responses::ResponseStore> responses =
      std::make_shared<responses::ResponseStore>(kDefaultStoredResponses, kStoredResponseBytes);
  // Requests reach the engine in arrival order (I/O thread only).
  AdmissionOrder admission;
  std::atomic<bool> ready{false};
  // Shutting down: in-flight requests finish, readiness says 503.
  std::atomic<bool> draining{false};
};

}  // namespace ingot::server
