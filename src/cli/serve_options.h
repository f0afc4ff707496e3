#pragma once
// What `ingot serve` is told on its command line.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cli/cache_type_options.h"
#include "cli/chat_template_choice.h"
#include "engine/engine.h"
#include "server/http/http_options.h"
#include "server/serving_context.h"

namespace ingot::cli {

struct ServeOptions {
  std::vector<std::string> model_paths;
  std::string models_dir;
  std::string models_config;  // --models-config FILE
  size_t max_loaded = 0;
  std::optional<int64_t> memory_budget_mib;
  int64_t idle_unload_s = 0;
  std::vector<std::string> aliases;
  server::HttpOptions http;
  engine::EngineOptions engine;
  server::ServingDefaults defaults;
  size_t max_body_mib = 8;
  double shutdown_timeout_s = 10;
  std::string api_key;
  size_t prompt_threads = 2;
  size_t responses_store = server::kDefaultStoredResponses;
  std::vector<std::string> logit_bias;  // TOKEN_ID(+|-)BIAS each
  bool mtp = false;
  std::string spec = "none";
  int32_t draft_max = 3;
  std::optional<int64_t> cache_ram_mib;  // unset: see cache_ram_bytes
  int64_t prompt_cache_mib = 4096;
  CacheTypeNames cache_types;
  bool embeddings = false;
  bool reranking = false;
  bool special_in_content = false;  // --allow-special-in-content
  std::vector<std::string> lora;    // FILE or FILE:SCALE
  bool adapters_optional = false;   // --models: one that fails to load is left out
  std::string pooling;              // empty: the file's pooling_type, else last
  int64_t max_embedding_inputs = 2048;
  ChatTemplateChoice chat_template;
  // The template chat_template names, read once at start (every model
  // served uses it in place of its own).
  std::optional<std::string> chat_template_source;
};

// The prompt cache's room (--cache-ram): llama-server's default, but never
// more than a quarter of the memory the machine has free at start.
int64_t cache_ram_bytes(const ServeOptions& options);

}  // namespace ingot::cli
