// `ingot serve`: the OpenAI-compatible HTTP server over one model.

#include <spdlog/spdlog.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>

#include "cli/cache_type_options.h"
#include "cli/commands.h"
#include "cli/embedding_pooling.h"
#include "cli/loaded_model.h"
#include "engine/engine.h"
#include "kernels/dispatch.h"
#include "model/lora_adapter.h"
#include "model/model.h"
#include "sampling/logit_bias_spec.h"
#include "server/http/http_server.h"
#include "server/metrics.h"
#include "server/prompt_preparation.h"
#include "server/routes/routes.h"
#include "tokenizer/tokenizer.h"
#include "util/duration.h"
#include "util/memory_info.h"

namespace ingot::cli {
namespace {

struct ServeOptions {
  std::string model_path;
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
  std::optional<int64_t> cache_ram_mib;  // unset: kDefaultCacheRamMib or less
  int64_t prompt_cache_mib = 4096;
  CacheTypeNames cache_types;
  bool embeddings = false;
  bool reranking = false;
  std::vector<std::string> lora;  // FILE or FILE:SCALE
  std::string pooling;            // empty: the file's pooling_type, else last
  int64_t max_embedding_inputs = 2048;
};

// llama-server's default prompt cache, but never more than a quarter of the
// memory the machine has free at start.
constexpr int64_t kDefaultCacheRamMib = 8192;

int64_t cache_ram_bytes(const ServeOptions& options) {
  if (options.cache_ram_mib) return *options.cache_ram_mib << 20;
  int64_t bytes = kDefaultCacheRamMib << 20;
  if (auto available = available_memory_bytes()) {
    bytes = std::min(bytes, int64_t(*available / 4));
  }
  return bytes;
}

// --lora FILE[:SCALE]: the adapters, loaded for the model, in their order
// (their ids).
bool load_adapters(const ServeOptions& options, const LoadedModel& loaded,
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
    if (!adapter.ok()) {
      std::fprintf(stderr, "ingot serve: --lora %s: %s\n", spec.c_str(),
                   adapter.error().describe().c_str());
      return false;
    }
    context.lora_adapters.push_back({std::move(adapter).value(), scale});
  }
  return true;
}

// Reranking needs the file's classification head.
bool check_reranking(const ServeOptions& options, const LoadedModel& loaded) {
  const bool asked = options.reranking || loaded.model->config().pooling_type == 4;
  if (!asked || loaded.model->rank_head() != nullptr) return true;
  std::fprintf(stderr,
               "ingot serve: %s: the model has no classification head (cls.output), so it "
               "cannot rerank\n",
               options.reranking ? "--reranking" : "the file names rank pooling");
  return false;
}

int serve(ServeOptions options) {
  if (options.api_key.empty()) {
    if (const char* env = std::getenv("INGOT_API_KEY"); env && *env) options.api_key = env;
  }
  if (!options.api_key.empty()) options.http.api_key = options.api_key;
  options.http.max_body_bytes = options.max_body_mib << 20;

  auto loaded = LoadedModel::load(options.model_path);
  if (!loaded.ok()) {
    std::fprintf(stderr, "ingot serve: %s\n", loaded.error().describe().c_str());
    return 1;
  }
  for (const std::string& spec : options.logit_bias) {
    const auto bias = *sampling::parse_logit_bias_spec(spec);  // checked when parsed
    if (!loaded->tokenizer->vocab().contains(bias.first)) {
      std::fprintf(stderr, "ingot serve: --logit-bias %s: the vocabulary has no token %d\n",
                   spec.c_str(), bias.first);
      return 2;
    }
    options.defaults.sampling.logit_bias.push_back(bias);
  }
  if (!check_reranking(options, *loaded)) return 2;
  options.engine.prepare_grammar = true;
  options.engine.cache_types = cache_types(options.cache_types);
  options.engine.cache_ram_bytes = cache_ram_bytes(options);
  options.engine.prompt_cache_bytes = options.prompt_cache_mib << 20;
  if (options.mtp || options.spec == "mtp") options.engine.draft_tokens = options.draft_max;
  auto engine = engine::Engine::start(*loaded->model, *loaded->tokenizer, options.engine);
  if (!engine.ok()) {
    std::fprintf(stderr, "ingot serve: %s\n", engine.error().describe().c_str());
    return 1;
  }

  server::Metrics metrics;
  server::ServingContext context;
  context.model_id = std::filesystem::path(options.model_path).stem().string();
  context.aliases = options.aliases;
  context.created = std::time(nullptr);
  context.system_fingerprint = std::string("ingot-") + INGOT_VERSION;
  context.tokenizer = loaded->tokenizer.get();
  context.chat_template = &loaded->chat_template();
  context.bos_text = loaded->bos_text;
  context.eos_text = loaded->eos_text;
  context.reasoning_tags = loaded->reasoning_tags;
  context.tool_call_family = loaded->tool_call_family;
  context.template_renders_tools = loaded->template_renders_tools;
  context.template_reads_developer_role = loaded->template_reads_developer_role;
  context.engine = engine->get();
  // A file that names its pooling (Qwen3-Embedding, BERT embedders) is an
  // embedding model: served for /v1/embeddings alone.
  const int64_t pooling_type = loaded->model->config().pooling_type;
  context.embedding_only = pooling_type >= 1 && pooling_type <= 3;
  // One that names rank pooling (bge-reranker, Qwen3-Reranker) answers
  // /v1/rerank alone.
  context.reranking_only = pooling_type == 4;
  context.reranking = context.reranking_only || options.reranking;
  context.rerank_template = loaded->model->file().metadata().get_or<std::string>(
      "tokenizer.chat_template.rerank", std::string());
  if (context.rerank_template->empty()) context.rerank_template.reset();
  if ((options.embeddings && !context.reranking_only) || context.embedding_only) {
    context.embedding_pooling = embedding_pooling(options.pooling, loaded->model->config());
  }
  context.max_embedding_inputs = options.max_embedding_inputs;
  if (!load_adapters(options, *loaded, context)) return 2;
  std::vector<std::string> adapter_names;
  for (const auto& served : context.lora_adapters) {
    adapter_names.push_back(context.adapter_model_id(served));
  }
  metrics.set_lora_adapters(std::move(adapter_names));
  context.defaults = options.defaults;
  context.metrics = &metrics;
  context.responses = std::make_unique<server::responses::ResponseStore>(
      options.responses_store, server::kStoredResponseBytes);
  context.shutdown_grace =
      std::chrono::milliseconds(static_cast<int64_t>(options.shutdown_timeout_s * 1000));

  server::HttpServer http(options.http, server::build_routes(context));
  http.on_answered([&metrics](std::string_view route, int status, bool dropped_as_slow) {
    metrics.count_request(std::string(route), status);
    if (dropped_as_slow) metrics.count_slow_client_dropped();
  });
  // Declared after the server so that it joins while the io_context its
  // work posts back to still exists.
  std::optional<server::PromptPool> prompts;
  if (options.prompt_threads > 0) {
    prompts.emplace(options.prompt_threads);
    context.prompts = &*prompts;
  }
  if (Status listening = http.listen(); !listening.ok()) {
    std::fprintf(stderr, "ingot serve: %s\n", listening.error().describe().c_str());
    return 1;
  }
  context.ready = true;

  std::string name = loaded->model->config().name;
  std::fprintf(
      stderr, "ingot serve: %s on http://%s:%u (OpenAI base URL http://%s:%u/v1), %s kernels\n",
      context.model_id.c_str(), options.http.host.c_str(), http.port(), options.http.host.c_str(),
      http.port(), std::string(kernels::isa_name(kernels::active_isa())).c_str());
  if (name.find("random weights") != std::string::npos) {
    std::fprintf(stderr,
                 "ingot serve: this model has random weights, so its replies are noise; serve "
                 "your own with `make serve MODEL=path/to/model.gguf`\n");
  }

  boost::asio::signal_set signals(http.io_context(), SIGINT, SIGTERM);
  signals.async_wait([&](boost::system::error_code ec, int signal) {
    if (ec) return;
    spdlog::info("signal {}: draining in-flight requests for up to {:.1f} s", signal,
                 options.shutdown_timeout_s);
    std::fprintf(stderr, "ingot serve: shutting down\n");
    context.draining = true;
    http.shutdown(context.shutdown_grace, [&] { (*engine)->stop(); });
  });
  http.run();
  (*engine)->stop();
  return 0;
}

}  // namespace

void register_serve(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<ServeOptions>();
  CLI::App* command = app.add_subcommand("serve", "Serve a model over an OpenAI-compatible API");
  command->add_option("-m,--model", options->model_path, "GGUF model file")->required();
  command->add_option("--host", options->http.host, "Address to listen on")->capture_default_str();
  command->add_option("--port", options->http.port, "Port (0 picks a free one)")
      ->capture_default_str();
  command->add_option("--alias", options->aliases, "Another name clients may use for the model");
  command->add_option("--api-key", options->api_key,
                      "Require 'Authorization: Bearer KEY' (also INGOT_API_KEY)");
  command->add_option("--parallel", options->engine.parallel, "Sequences decoded together")
      ->capture_default_str();
  command
      ->add_option("-c,--ctx-size", options->engine.context_size,
                   "Context per sequence (0: the model's, at most 4096)")
      ->capture_default_str();
  command->add_option("-b,--batch-size", options->engine.batch_size, "Tokens per forward pass")
      ->capture_default_str();
  command
      ->add_option("--max-queue", options->engine.max_queue,
                   "Requests that may wait for a slot before 503")
      ->capture_default_str();
  command->add_option("-t,--threads", options->engine.threads, "Compute threads (0: one per core)")
      ->capture_default_str();
  command->add_flag("--mtp", options->mtp,
                    "Self-speculative decoding: draft with the model's multi-token-prediction "
                    "block, check the drafts in each step");
  command->add_option("--spec", options->spec, "Speculative decoding: mtp (as --mtp) or none")
      ->check(CLI::IsMember({"mtp", "none"}))
      ->capture_default_str();
  command->add_option("--draft-max", options->draft_max, "Tokens drafted per step with --mtp")
      ->capture_default_str();
  command
      ->add_option("--draft-p-min", options->engine.draft_min_probability,
                   "With --mtp, stop drafting at a draft the block gives less probability")
      ->capture_default_str();
  command
      ->add_option("--cache-ram", options->cache_ram_mib,
                   "MiB of KV blocks kept for finished requests beyond the slots' own, so that "
                   "a later request with the same prefix on any slot skips its prefill (0: none; "
                   "default 8192, at most a quarter of the free memory)")
      ->check(CLI::Range(int64_t{0}, int64_t{1} << 30));
  add_cache_type_options(*command, options->cache_types);
  command->add_flag("--embeddings", options->embeddings,
                    "Serve /v1/embeddings: each input's final hidden states pooled (--pooling, "
                    "else as the file says, else the last token's) and normalized");
  command
      ->add_option("--lora", options->lora,
                   "A LoRA adapter (llama.cpp's GGUF format) to run every request with, at "
                   "SCALE (default 1); repeatable, ids in order; a request's `lora` field "
                   "chooses among them")
      ->type_name("FILE[:SCALE]");
  command->add_flag("--reranking,--rerank", options->reranking,
                    "Serve /v1/rerank (the model needs a classification head; a file that names "
                    "rank pooling is served so without it)");
  command->add_option("--pooling", options->pooling, "mean, last or cls (with --embeddings)")
      ->check(CLI::IsMember({"mean", "last", "cls"}));
  command
      ->add_option("--max-embedding-inputs", options->max_embedding_inputs,
                   "Inputs one /v1/embeddings request may hold")
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 20))
      ->capture_default_str();
  command->add_flag("--swa-full", options->engine.swa_full,
                    "Keep every position of sliding-window layers (Gemma, gpt-oss), not only "
                    "their windows: more memory, and any cached prefix resumes whatever its age");
  command
      ->add_option("--prompt-cache", options->engine.prompt_cache_dir,
                   "Directory keeping the KV blocks of long prompt prefixes across restarts, so "
                   "that a conversation re-sent after a restart skips its prefill")
      ->type_name("DIR");
  command
      ->add_option("--prompt-cache-size", options->prompt_cache_mib,
                   "MiB the --prompt-cache directory may hold; the least recently used blocks go "
                   "first")
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 30))
      ->capture_default_str();
  command
      ->add_option("--prompt-cache-min", options->engine.prompt_cache_min_tokens,
                   "Shortest prefix, in tokens, whose blocks --prompt-cache writes")
      ->check(CLI::Range(int64_t{0}, int64_t{1} << 30))
      ->capture_default_str();
  command->add_option("--max-body", options->max_body_mib, "Largest request body, MiB")
      ->capture_default_str();
  command
      ->add_option("--prompt-threads", options->prompt_threads,
                   "Threads rendering and tokenizing prompts (0: the I/O thread)")
      ->capture_default_str();
  command
      ->add_option("--responses-store", options->responses_store,
                   "Responses the Responses API keeps for previous_response_id and retrieval "
                   "(least recently used first out; 0: none)")
      ->capture_default_str();
  command
      ->add_option("-l,--logit-bias", options->logit_bias,
                   "TOKEN_ID(+|-)BIAS added to every request's logits, as llama-server's "
                   "(15043+1, 2-inf); a request's own logit_bias adds to it")
      ->check([](const std::string& spec) -> std::string {
        return sampling::parse_logit_bias_spec(spec) ? "" : "expected TOKEN_ID(+|-)BIAS";
      });
  command
      ->add_option("--max-tokens", options->defaults.max_tokens,
                   "Default max_tokens (-1: until the context is full)")
      ->capture_default_str();
  command
      ->add_option("--max-tokens-cap", options->defaults.max_tokens_cap,
                   "Largest max_tokens a request may ask for")
      ->capture_default_str();
  command->add_option("--temp", options->defaults.sampling.temperature, "Default temperature")
      ->capture_default_str();
  command->add_option("--top-k", options->defaults.sampling.top_k, "Default top_k")
      ->capture_default_str();
  command->add_option("--top-p", options->defaults.sampling.top_p, "Default top_p")
      ->capture_default_str();
  command->add_option("--min-p", options->defaults.sampling.min_p, "Default min_p")
      ->capture_default_str();
  command
      ->add_option("--repeat-penalty", options->defaults.sampling.repetition_penalty,
                   "Default repetition penalty")
      ->capture_default_str();
  command
      ->add_option_function<std::string>(
          "--slow-client-timeout",
          [options](const std::string& text) {
            options->http.slow_client_timeout = *parse_duration(text);  // checked below
          },
          "Drop a client whose socket takes none of its response for this long (30s, 500ms, "
          "2m); a slow server never drops anyone")
      ->check([](const std::string& text) -> std::string {
        auto parsed = parse_duration(text);
        if (!parsed.ok()) return parsed.error().message();
        return *parsed > std::chrono::milliseconds(0) ? "" : "the time must be more than zero";
      })
      ->default_str("30s");
  command
      ->add_option("--shutdown-timeout", options->shutdown_timeout_s,
                   "Seconds in-flight requests may finish after SIGTERM")
      ->capture_default_str();
  command->callback([options, &exit_code] { exit_code = serve(*options); });
}

}  // namespace ingot::cli
