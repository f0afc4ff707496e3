#include "cli/served_model.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdlib>
#include <ctime>

#include "cli/embedding_pooling.h"
#include "model/kv_cache.h"
#include "model/lora_adapter.h"
#include "sampling/logit_bias_spec.h"
#include "server/routes/routes.h"
#include "util/memory_info.h"

namespace ingot::cli {

constexpr int64_t kDefaultCacheRamMib = 8192;  // llama-server's

int64_t cache_ram_bytes(const ServeOptions& options) {
  if (options.cache_ram_mib) return *options.cache_ram_mib << 20;
  int64_t bytes = kDefaultCacheRamMib << 20;
  if (auto available = available_memory_bytes()) {
    bytes = std::min(bytes, int64_t(*available / 4));
  }
  return bytes;
}

namespace {

// --lora FILE[:SCALE]: the adapters, loaded for the model, in their order
// (their ids).
Status load_adapters(const ServeOptions& options, const LoadedModel& loaded,
                     server::ServingContext& context) {
  for (const std::string& spec : options.lora) {
    std::string path = spec;
    float scale = 1.0f;
    if (const size_t colon = spec.rfind(':'); colon != std::string::npos) {
      char* end = nullptr;
      const float parsed = std::strtof(spec.c_str() + colon + 1, &end);
      if (end != spec.c_str() + colon + 1 && *end == '\0') {
        path = spec.substr(0, colon);
        scale = parsed;
      }
    }
    auto adapter = model::LoraAdapter::load(path, loaded.model->config());
    if (!adapter.ok() && options.adapters_optional) {
      spdlog::warn("the adapter {} is not served: {}", path, adapter.error().describe());
      continue;
    }
    if (!adapter.ok()) {
      return invalid_argument("--lora " + spec + ": " + adapter.error().describe());
    }
    context.identity.lora_adapters.push_back({std::move(adapter).value(), scale});
  }
  return {};
}

// Reranking needs the file's classification head.
Status check_reranking(const ServeOptions& options, const LoadedModel& loaded) {
  const bool asked = options.reranking || loaded.model->config().pooling_type == 4;
  if (!asked || loaded.model->rank_head() != nullptr) return {};
  return invalid_argument(
      std::string(options.reranking ? "--reranking" : "the file names rank pooling") +
      ": the model has no classification head (cls.output), so it cannot "
      "rerank");
}

// A file that names its pooling (Qwen3-Embedding, BERT embedders) is an
// embedding model, served for /v1/embeddings alone; one that names rank
// pooling (bge-reranker, Qwen3-Reranker) answers /v1/rerank alone.
server::ModelCapability capability_of(const ServeOptions& options, const LoadedModel& loaded) {
  using Purpose = server::ModelCapability::Purpose;
  server::ModelCapability capability;
  const int64_t pooling_type = loaded.model->config().pooling_type;
  if (pooling_type >= 1 && pooling_type <= 3) capability.purpose = Purpose::kEmbed;
  if (pooling_type == 4) capability.purpose = Purpose::kRerank;
  const bool ranks_alone = capability.purpose == Purpose::kRerank;
  capability.reranking = ranks_alone || options.reranking;
  if ((options.embeddings && !ranks_alone) || capability.purpose == Purpose::kEmbed) {
    capability.embedding_pooling = embedding_pooling(options.pooling, loaded.model->config());
  }
  capability.max_embedding_inputs = options.max_embedding_inputs;
  capability.canvas = loaded.canvas_defaults();
  return capability;
}

void fill_context(const ServeOptions& options, const std::string& id, ServedInstance& served,
                  const SharedServing& shared) {
  const LoadedModel& loaded = served.loaded;
  server::ServingContext& context = served.serving;
  context.identity.model_id = id;
  context.identity.created = std::time(nullptr);
  context.identity.system_fingerprint = std::string("ingot-") + INGOT_VERSION;
  context.format.tokenizer = loaded.tokenizer.get();
  context.format.chat_template = &loaded.chat_template();
  context.format.bos_text = loaded.bos_text;
  context.format.eos_text = loaded.eos_text;
  context.format.reasoning_tags = loaded.reasoning_tags;
  context.format.tool_call_family = loaded.tool_call_family;
  context.format.renders_tools = loaded.template_renders_tools;
  context.format.reads_developer_role = loaded.template_reads_developer_role;
  context.format.special_in_content = options.special_in_content;
  context.format.chat_template_source = loaded.template_source;
  context.engine = served.engine.get();
  // --max-queue counts a request from its arrival: the slots' worth and
  // the queue's may be between arrival and the engine at once.
  context.admission.set_capacity(
      size_t(std::max(options.engine.parallel, 1) + std::max(options.engine.max_queue, 0)));
  context.capability = capability_of(options, loaded);
  context.format.rerank_template = loaded.model->file().metadata().get_or<std::string>(
      "tokenizer.chat_template.rerank", std::string());
  if (context.format.rerank_template->empty()) context.format.rerank_template.reset();
  context.defaults = options.defaults;
  context.metrics = shared.metrics;
  context.prompts = shared.prompts;
  context.responses = shared.responses;
  context.shutdown_grace =
      std::chrono::milliseconds(static_cast<int64_t>(options.shutdown_timeout_s * 1000));
  context.ready = true;
}

}  // namespace

Result<std::unique_ptr<ServedInstance>> serve_model(const ServeOptions& options,
                                                    const std::string& path, const std::string& id,
                                                    const SharedServing& shared) {
  auto served = std::make_unique<ServedInstance>();
  INGOT_ASSIGN_OR_RETURN(served->loaded, LoadedModel::load(path, options.chat_template_source));
  const LoadedModel& loaded = served->loaded;
  ServeOptions local = options;
  for (const std::string& spec : options.logit_bias) {
    const auto bias = *sampling::parse_logit_bias_spec(spec);  // checked when parsed
    if (!loaded.tokenizer->vocab().contains(bias.first)) {
      return invalid_argument("--logit-bias " + spec + ": the vocabulary has no token " +
                              std::to_string(bias.first));
    }
    local.defaults.sampling.logit_bias.push_back(bias);
  }
  INGOT_RETURN_IF_ERROR(check_reranking(options, loaded));
  local.engine.prepare_grammar = true;
  local.engine.cache_types = cache_types(options.cache_types);
  local.engine.cache_ram_bytes = cache_ram_bytes(options);
  local.engine.prompt_cache_bytes = options.prompt_cache_mib << 20;
  if (options.mtp || options.spec == "mtp") local.engine.draft_tokens = options.draft_max;
  INGOT_ASSIGN_OR_RETURN(served->engine,
                         engine::Engine::start(*loaded.model, *loaded.tokenizer, local.engine));
  fill_context(local, id, *served, shared);
  INGOT_RETURN_IF_ERROR(load_adapters(options, loaded, served->serving));
  served->serving.identity.aliases = options.aliases;
  served->router = server::build_routes(served->serving);
  const int64_t per_position = model::KvCache::bytes_per_position(
      model::kv_cache_layers(loaded.model->config()), local.engine.cache_types);
  served->bytes = loaded.model->file().file_size() +
                  uint64_t(per_position) * uint64_t(served->engine->stats().kv_cells_total);
  return served;
}

}  // namespace ingot::cli
