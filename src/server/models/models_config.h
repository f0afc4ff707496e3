#pragma once
// `serve --models-config FILE`: per-model settings for `serve --models`, in
// TOML or JSON (by the file's extension), keyed by model name:
//
//   [models.qwen3-8b]              {"models": {"qwen3-8b": {
//   aliases = ["chat"]                "aliases": ["chat"],
//   ctx_size = 8192                   "ctx_size": 8192,
//   parallel = 4                      "parallel": 4,
//   pinned = true                     "pinned": true,
//   max_tokens = 1024                 "max_tokens": 1024,
//   [models.qwen3-8b.sampling]        "sampling": {"temperature": 0.7}}}}
//   temperature = 0.7
//
// A pinned model is loaded at start and never unloaded. Every key is
// checked: an unknown one, a wrong type or a model the server does not
// have is an error naming it.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "util/status.h"

namespace ingot::server {

struct ModelSettings {
  std::vector<std::string> aliases;
  std::optional<int64_t> ctx_size;
  std::optional<int64_t> parallel;
  std::optional<int32_t> max_tokens;
  bool pinned = false;
  std::optional<float> temperature;
  std::optional<int32_t> top_k;
  std::optional<float> top_p;
  std::optional<float> min_p;
  std::optional<float> repeat_penalty;
};

using ModelsConfig = std::map<std::string, ModelSettings>;

Result<ModelsConfig> read_models_config(const std::string& path);
// The same from text, in "toml" or "json".
Result<ModelsConfig> parse_models_config(const std::string& text, const std::string& format);

}  // namespace ingot::server
