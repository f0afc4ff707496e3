#include "server/openai/generation_fields.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace ingot::server {

using json = nlohmann::ordered_json;

void check_model(Validator& v, const RequestLimits& limits, GenerationFields& request) {
  const json* model = v.field("model");
  if (v.failed()) return;
  if (model == nullptr) return v.fail("'model' is required.", "model");
  if (!model->is_string()) return v.fail("'model' must be a string.", "model");
  request.model = model->get<std::string>();
  if (std::find(limits.model_ids.begin(), limits.model_ids.end(), request.model) ==
      limits.model_ids.end()) {
    ApiError error{404, "invalid_request_error",
                   "The model '" + request.model + "' does not exist; this server serves '" +
                       (limits.model_ids.empty() ? std::string() : limits.model_ids.front()) + "'.",
                   "model", "model_not_found"};
    v.fail_with(std::move(error));
  }
}

namespace {

// llama-server's `n_predict`, where -1 means "no limit" (the same as absent).
std::optional<int64_t> n_predict(Validator& v) {
  auto value = v.integer("n_predict");
  if (value && *value == -1) return std::nullopt;
  return value;
}

}  // namespace

void check_max_tokens(Validator& v, const RequestLimits& limits, GenerationFields& request,
                      bool allow_zero) {
  auto legacy = v.integer("max_tokens");
  auto modern = v.integer("max_completion_tokens");
  auto llama = n_predict(v);
  if (v.failed()) return;
  for (auto [value, name] :
       {std::pair{legacy, "max_tokens"}, std::pair{modern, "max_completion_tokens"},
        std::pair{llama, "n_predict"}}) {
    if (!value) continue;
    if (*value < (allow_zero ? 0 : 1)) {
      return v.fail(std::string("'") + name + "' must be at least " + (allow_zero ? "0." : "1."),
                    name);
    }
    if (*value > limits.max_tokens_cap) {
      return v.fail(std::string("'") + name + "' must be at most " +
                        std::to_string(limits.max_tokens_cap) + " on this server.",
                    name);
    }
  }
  if (legacy && modern && *legacy != *modern) {
    return v.fail("'max_tokens' and 'max_completion_tokens' disagree; send one of them.",
                  "max_completion_tokens");
  }
  auto given = modern ? modern : legacy;
  if (given && llama && *given != *llama) {
    return v.fail("'n_predict' and '" +
                      std::string(modern ? "max_completion_tokens" : "max_tokens") +
                      "' disagree; send one of them.",
                  "n_predict");
  }
  request.max_tokens = given ? given : llama;
}

namespace {

// vLLM's `repetition_penalty` or llama-server's `repeat_penalty`: one
// penalty under two names, so two different values are a contradiction.
std::optional<float> repetition_penalty(Validator& v) {
  auto vllm = v.number_in("repetition_penalty", 0.0, 10.0, /*lo_open=*/true);
  auto llama = v.number_in("repeat_penalty", 0.0, 10.0, /*lo_open=*/true);
  if (vllm && llama && *vllm != *llama) {
    v.fail("'repeat_penalty' and 'repetition_penalty' disagree; send one of them.",
           "repeat_penalty");
    return std::nullopt;
  }
  return vllm ? vllm : llama;
}

}  // namespace

void check_sampling(Validator& v, GenerationFields& request) {
  request.temperature = v.number_in("temperature", 0.0, 2.0);
  request.top_p = v.number_in("top_p", 0.0, 1.0, /*lo_open=*/true);
  if (auto top_k = v.integer("top_k")) {
    if (*top_k < 0 || *top_k > 1'000'000) {
      v.fail("'top_k' must be between 0 and 1000000 (0 turns it off).", "top_k");
    } else {
      request.top_k = static_cast<int32_t>(*top_k);
    }
  }
  request.min_p = v.number_in("min_p", 0.0, 1.0);
  request.repetition_penalty = repetition_penalty(v);
  request.frequency_penalty = v.number_in("frequency_penalty", -2.0, 2.0);
  request.presence_penalty = v.number_in("presence_penalty", -2.0, 2.0);
  // llama-server's clients send -1 for "pick a random seed".
  if (auto seed = v.integer("seed"); seed && *seed != -1)
    request.seed = static_cast<uint64_t>(*seed);
}

void check_stop(Validator& v, GenerationFields& request) {
  const json* stop = v.field("stop");
  if (stop == nullptr || v.failed()) return;
  if (stop->is_string()) {
    if (stop->get<std::string>().empty()) return v.fail("'stop' must not be empty.", "stop");
    request.stop = {stop->get<std::string>()};
    return;
  }
  if (!stop->is_array()) return v.fail("'stop' must be a string or a list of strings.", "stop");
  if (stop->size() > 4) return v.fail("'stop' may hold at most 4 strings.", "stop");
  for (const json& s : *stop) {
    if (!s.is_string() || s.get<std::string>().empty()) {
      return v.fail("Every entry of 'stop' must be a non-empty string.", "stop");
    }
    request.stop.push_back(s.get<std::string>());
  }
}

void check_stream(Validator& v, GenerationFields& request) {
  request.stream = v.boolean("stream").value_or(false);
  const json* options = v.field("stream_options");
  if (options == nullptr || v.failed()) return;
  if (!request.stream) {
    return v.fail("'stream_options' is only allowed when 'stream' is true.", "stream_options");
  }
  if (!options->is_object()) return v.fail("'stream_options' must be an object.", "stream_options");
  if (options->contains("include_usage")) {
    const json& usage = (*options)["include_usage"];
    if (!usage.is_boolean()) {
      return v.fail("'stream_options.include_usage' must be a boolean.",
                    "stream_options.include_usage");
    }
    request.include_usage = usage.get<bool>();
  }
}

void check_logprobs(Validator& v, GenerationFields& request) {
  request.logprobs = v.boolean("logprobs").value_or(false);
  auto top = v.integer("top_logprobs");
  if (!top || v.failed()) return;
  if (*top < 0 || *top > 20)
    return v.fail("'top_logprobs' must be between 0 and 20.", "top_logprobs");
  if (!request.logprobs) {
    return v.fail("'top_logprobs' requires 'logprobs' to be true.", "top_logprobs");
  }
  request.top_logprobs = static_cast<int32_t>(*top);
}

void check_logit_bias(Validator& v, GenerationFields& request) {
  const json* bias = v.field("logit_bias");
  if (bias == nullptr || v.failed()) return;
  if (!bias->is_object()) return v.fail("'logit_bias' must be an object.", "logit_bias");
  for (const auto& [key, value] : bias->items()) {
    char* end = nullptr;
    long id = std::strtol(key.c_str(), &end, 10);
    if (key.empty() || *end != '\0' || id < 0 || id > std::numeric_limits<int32_t>::max()) {
      return v.fail("'logit_bias' keys must be token ids, got '" + key + "'.", "logit_bias");
    }
    if (!value.is_number() || value.get<double>() < -100 || value.get<double>() > 100) {
      return v.fail("'logit_bias' values must be numbers between -100 and 100.", "logit_bias");
    }
    request.logit_bias.emplace_back(static_cast<int32_t>(id), value.get<float>());
  }
}

namespace {

void check_lora(Validator& v, GenerationFields& request) {
  const Validator::json* lora = v.field("lora");
  if (lora == nullptr || v.failed()) return;
  const std::string shape = "'lora' must be a list of {\"id\": integer, \"scale\": number}.";
  if (!lora->is_array()) return v.fail(shape, "lora");
  std::vector<std::pair<int64_t, float>> adapters;
  for (const Validator::json& entry : *lora) {
    if (!entry.is_object()) return v.fail(shape, "lora");
    auto id = entry.find("id");
    if (id == entry.end() || id->is_boolean() || !id->is_number_integer() ||
        id->get<int64_t>() < 0) {
      return v.fail("'lora' entries need an \"id\", a non-negative integer.", "lora");
    }
    float scale = 0.0f;
    if (auto it = entry.find("scale"); it != entry.end() && !it->is_null()) {
      if (!it->is_number() || it->is_boolean() || !std::isfinite(it->get<double>())) {
        return v.fail("'lora' scales must be numbers.", "lora");
      }
      scale = it->get<float>();
    }
    for (const auto& [seen, unused] : adapters) {
      if (seen == id->get<int64_t>()) {
        return v.fail("'lora' names adapter " + std::to_string(seen) + " twice.", "lora");
      }
    }
    adapters.emplace_back(id->get<int64_t>(), scale);
  }
  request.lora = std::move(adapters);
}

}  // namespace

void check_extensions(Validator& v, GenerationFields& request) {
  request.ignore_eos = v.boolean("ignore_eos").value_or(false);
  // The prefix cache is always on; the field is checked so a typo'd value
  // is not silently taken for a request to turn it off.
  v.boolean("cache_prompt");
  check_lora(v, request);
  if (auto steps = v.integer("diffusion_steps")) {
    if (*steps < 1 || *steps > 1024) {
      v.fail("'diffusion_steps' must be between 1 and 1024, got " + std::to_string(*steps) + ".",
             "diffusion_steps");
    }
    request.diffusion_steps = steps;
  }
  request.diffusion_entropy_bound = v.number_in("diffusion_entropy_bound", 0.0, 1000.0);
}

}  // namespace ingot::server
