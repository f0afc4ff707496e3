// `ingot serve`: the OpenAI-compatible HTTP server over one model, or over
// several loaded on demand (--models DIR).

#include <spdlog/spdlog.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>

#include "cli/commands.h"
#include "cli/serve_options.h"
#include "cli/served_model.h"
#include "engine/shared_compute.h"
#include "kernels/dispatch.h"
#include "sampling/logit_bias_spec.h"
#include "server/http/http_server.h"
#include "server/metrics.h"
#include "server/models/model_registry.h"
#include "server/models/model_routes.h"
#include "server/models/models_config.h"
#include "server/prompt_preparation.h"
#include "util/duration.h"
#include "util/memory_info.h"

namespace ingot::cli {
namespace {

// --memory-budget, or three quarters of the memory free at start.
uint64_t memory_budget_bytes(const ServeOptions& options) {
  if (options.memory_budget_mib) return uint64_t(*options.memory_budget_mib) << 20;
  if (auto available = available_memory_bytes()) return *available / 4 * 3;
  return 0;
}

// Runs the HTTP server until SIGINT or SIGTERM, then drains.
// `on_drain` runs on the io thread when the drain starts.
int run_http(server::HttpServer& http, const ServeOptions& options, server::ServingContext& ready,
             const std::string& what, const std::string& note,
             std::function<void()> cancel_in_flight, std::function<void()> on_drain = {}) {
  if (Status listening = http.listen(); !listening.ok()) {
    std::fprintf(stderr, "ingot serve: %s\n", listening.error().describe().c_str());
    return 1;
  }
  ready.ready = true;
  std::fprintf(stderr,
               "ingot serve: %s on http://%s:%u (OpenAI base URL http://%s:%u/v1), %s kernels\n",
               what.c_str(), options.http.host.c_str(), http.port(), options.http.host.c_str(),
               http.port(), std::string(kernels::isa_name(kernels::active_isa())).c_str());
  if (!note.empty()) std::fprintf(stderr, "ingot serve: %s\n", note.c_str());
  boost::asio::signal_set signals(http.io_context(), SIGINT, SIGTERM);
  signals.async_wait([&](boost::system::error_code ec, int signal) {
    if (ec) return;
    spdlog::info("signal {}: draining in-flight requests for up to {:.1f} s", signal,
                 options.shutdown_timeout_s);
    std::fprintf(stderr, "ingot serve: shutting down\n");
    ready.draining = true;
    if (on_drain) on_drain();
    http.shutdown(ready.shutdown_grace, cancel_in_flight);
  });
  http.run();
  return 0;
}

void count_answers(server::HttpServer& http, server::Metrics& metrics) {
  http.on_answered([&metrics](std::string_view route, int status, bool dropped_as_slow) {
    metrics.count_request(std::string(route), status);
    if (dropped_as_slow) metrics.count_slow_client_dropped();
  });
}

// The models of --models DIR or several --model, with --models-config's
// settings.
Result<server::ModelCatalog> catalog_for(const ServeOptions& options) {
  INGOT_ASSIGN_OR_RETURN(server::ModelCatalog catalog,
                         options.models_dir.empty()
                             ? server::ModelCatalog::of_files(options.model_paths)
                             : server::ModelCatalog::scan(options.models_dir));
  if (!options.models_config.empty()) {
    INGOT_ASSIGN_OR_RETURN(server::ModelsConfig config,
                           server::read_models_config(options.models_config));
    INGOT_RETURN_IF_ERROR(catalog.apply(config));
  }
  return catalog;
}

// One model's options: the server's, its --models-config settings over
// them, and its adapters, each off unless a request names it.
ServeOptions options_for(const ServeOptions& server_wide, const server::CatalogEntry& entry) {
  ServeOptions options = server_wide;
  const server::ModelSettings& settings = entry.settings;
  options.aliases = settings.aliases;
  if (settings.ctx_size) options.engine.context_size = *settings.ctx_size;
  if (settings.parallel) options.engine.parallel = int32_t(*settings.parallel);
  if (settings.max_tokens) options.defaults.max_tokens = *settings.max_tokens;
  sampling::SamplingParams& sampling = options.defaults.sampling;
  if (settings.temperature) sampling.temperature = *settings.temperature;
  if (settings.top_k) sampling.top_k = *settings.top_k;
  if (settings.top_p) sampling.top_p = *settings.top_p;
  if (settings.min_p) sampling.min_p = *settings.min_p;
  if (settings.repeat_penalty) sampling.repetition_penalty = *settings.repeat_penalty;
  options.adapters_optional = true;
  for (const server::CatalogAdapter& adapter : entry.adapters) {
    options.lora.push_back(adapter.path + ":0");
  }
  return options;
}

// --models DIR, or several --model: every model named by its file, loaded
// on demand within --max-loaded and --memory-budget.
int serve_many(const ServeOptions& options, server::Metrics& metrics) {
  auto catalog = catalog_for(options);
  if (!catalog.ok()) {
    std::fprintf(stderr, "ingot serve: %s\n", catalog.error().describe().c_str());
    return 2;
  }
  server::FleetContext fleet;
  fleet.metrics = &metrics;
  fleet.shared.identity.created = std::time(nullptr);
  fleet.shared.responses = std::make_shared<server::responses::ResponseStore>(
      options.responses_store, server::kStoredResponseBytes);
  fleet.shared.shutdown_grace =
      std::chrono::milliseconds(static_cast<int64_t>(options.shutdown_timeout_s * 1000));
  server::HttpServer http(options.http, server::Router());
  count_answers(http, metrics);
  std::optional<server::PromptPool> prompts;
  if (options.prompt_threads > 0) prompts.emplace(options.prompt_threads);
  fleet.shared.prompts = prompts ? &*prompts : nullptr;  // the fleet's routes parse bodies there
  const SharedServing shared{&metrics, fleet.shared.prompts, fleet.shared.responses};
  server::RegistryLimits limits;
  limits.max_loaded = options.max_loaded;
  limits.memory_budget = memory_budget_bytes(options);
  limits.idle_unload = std::chrono::seconds(options.idle_unload_s);
  limits.max_waiting = size_t(std::max<int64_t>(options.engine.max_queue, 1));
  // Each model's prompt-cache room is a share of what one model would get;
  // the compute threads are one pool the models' engines take turns on.
  ServeOptions per_model = options;
  per_model.engine.shared_compute = std::make_shared<engine::SharedCompute>(
      options.engine.threads > 0 ? options.engine.threads : ThreadPool::default_thread_count());
  if (!per_model.cache_ram_mib) {
    per_model.cache_ram_mib =
        (cache_ram_bytes(options) >> 20) / int64_t(options.max_loaded > 0 ? options.max_loaded : 4);
  }
  server::ModelRegistry registry(
      http.io_context(), std::move(catalog).value(),
      [&per_model,
       shared](const server::CatalogEntry& entry) -> Result<std::unique_ptr<server::ServedModel>> {
        INGOT_RETURN_IF_ERROR(server::ModelCatalog::check_unchanged(entry));
        INGOT_ASSIGN_OR_RETURN(auto served, serve_model(options_for(per_model, entry), entry.path,
                                                        entry.name, shared));
        return std::unique_ptr<server::ServedModel>(std::move(served));
      },
      limits);
  fleet.registry = &registry;
  http.set_router(server::build_model_routes(fleet));
  const size_t count = registry.catalog().entries().size();
  const int code = run_http(
      http, options, fleet.shared, std::to_string(count) + " models (GET /v1/models lists them)",
      "",
      [&] {
        for (const auto& s : registry.status()) {
          if (s.model) s.model->context().engine->stop();
        }
      },
      [&] { registry.drain(); });
  registry.shutdown();
  return code;
}

int serve_one(const ServeOptions& options, server::Metrics& metrics) {
  SharedServing shared{&metrics, nullptr,
                       std::make_shared<server::responses::ResponseStore>(
                           options.responses_store, server::kStoredResponseBytes)};
  const std::string& path = options.model_paths.front();
  auto served = serve_model(options, path, std::filesystem::path(path).stem().string(), shared);
  if (!served.ok()) {
    std::fprintf(stderr, "ingot serve: %s\n", served.error().describe().c_str());
    return served.error().kind() == ErrorKind::kInvalidArgument ? 2 : 1;
  }
  ServedInstance& model = **served;
  std::vector<std::string> adapter_names;
  for (const auto& adapter : model.serving.identity.lora_adapters) {
    adapter_names.push_back(model.serving.identity.adapter_model_id(adapter));
  }
  metrics.set_lora_adapters(std::move(adapter_names));
  model.serving.ready = false;  // until the server listens
  server::HttpServer http(options.http, model.router);
  count_answers(http, metrics);
  // Declared after the server so that it joins while the io_context its
  // work posts back to still exists.
  std::optional<server::PromptPool> prompts;
  if (options.prompt_threads > 0) {
    prompts.emplace(options.prompt_threads);
    model.serving.prompts = &*prompts;
  }
  const bool random = model.loaded.model->file().metadata().get_or<bool>("ingot.synthetic", false);
  const int code =
      run_http(http, options, model.serving, model.serving.identity.model_id,
               random ? "this model has random weights, so its replies are noise; serve "
                        "your own with `make serve MODEL=path/to/model.gguf`"
                      : "",
               [&] { model.engine->stop(); });
  model.engine->stop();
  return code;
}

int serve(ServeOptions options) {
  if (options.api_key.empty()) {
    if (const char* env = std::getenv("INGOT_API_KEY"); env && *env) options.api_key = env;
  }
  if (!options.api_key.empty()) options.http.api_key = options.api_key;
  options.http.max_body_bytes = options.max_body_mib << 20;
  if (options.model_paths.empty() == options.models_dir.empty()) {
    std::fprintf(stderr, "ingot serve: give --model FILE (repeatable) or --models DIR\n");
    return 2;
  }
  server::Metrics metrics;
  const bool many = !options.models_dir.empty() || options.model_paths.size() > 1;
  if (many && (!options.lora.empty() || !options.aliases.empty())) {
    std::fprintf(stderr,
                 "ingot serve: --lora and --alias go with one --model (with several, put adapters "
                 "beside their models and aliases in --models-config)\n");
    return 2;
  }
  const bool template_chosen =
      !options.chat_template.file.empty() || !options.chat_template.name_or_text.empty();
  if (many && template_chosen) {
    std::fprintf(stderr,
                 "ingot serve: --chat-template and --chat-template-file go with one --model\n");
    return 2;
  }
  Result<std::optional<std::string>> chosen = chosen_template_source(options.chat_template);
  if (!chosen.ok()) {
    std::fprintf(stderr, "ingot serve: %s\n", chosen.error().describe().c_str());
    return 2;
  }
  options.chat_template_source = std::move(chosen).value();
  if (!many && !options.models_config.empty()) {
    std::fprintf(stderr, "ingot serve: --models-config goes with --models or several --model\n");
    return 2;
  }
  return many ? serve_many(options, metrics) : serve_one(options, metrics);
}

}  // namespace

void register_serve(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<ServeOptions>();
  CLI::App* command = app.add_subcommand("serve", "Serve a model over an OpenAI-compatible API");
  command->add_option("-m,--model", options->model_paths,
                      "GGUF model file; repeated, each is a model named by its file name");
  command
      ->add_option("--models", options->models_dir,
                   "Serve every GGUF model in DIR and its subfolders, each named by its file name "
                   "without .gguf, loaded when a request names it")
      ->type_name("DIR");
  command
      ->add_option("--models-config", options->models_config,
                   "With several models, each one's aliases, ctx_size, parallel, max_tokens, "
                   "sampling defaults and whether it is pinned (always loaded), in TOML or JSON")
      ->type_name("FILE");
  command
      ->add_option("--max-loaded", options->max_loaded,
                   "With several models, how many may be loaded at once (0: as the memory budget "
                   "allows); the least recently used idle one is unloaded first")
      ->capture_default_str();
  command
      ->add_option("--memory-budget", options->memory_budget_mib,
                   "With several models, MiB their weights and KV caches may take together "
                   "(default: three quarters of the memory free at start)")
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 40));
  command
      ->add_option("--idle-unload", options->idle_unload_s,
                   "With several models, unload one idle for this many seconds (0: never)")
      ->check(CLI::Range(int64_t{0}, int64_t{1} << 30))
      ->capture_default_str();
  command->add_option("--host", options->http.host, "Address to listen on")->capture_default_str();
  command->add_option("--port", options->http.port, "Port (0 picks a free one)")
      ->capture_default_str();
  command->add_option("--allowed-host", options->http.allowed_hosts,
                      "Listening on loopback, also answer requests whose Host names this "
                      "(repeatable; * for any): others are refused as DNS rebinding");
  command->add_option("--cors-origin", options->http.cors_origins,
                      "Let web pages of this origin (https://app.example) call the server "
                      "besides loopback ones (repeatable; * for any)");
  command
      ->add_option("--max-connections", options->http.max_connections,
                   "Connections held at once; at the cap the oldest idle one is closed "
                   "(default: the descriptor limit less 64)")
      ->check(CLI::Range(size_t{1}, size_t{1} << 24));
  command->add_option("--alias", options->aliases, "Another name clients may use for the model");
  command->add_option("--chat-template-file", options->chat_template.file,
                      "A Jinja chat template to use in place of the model's own");
  command->add_option("--chat-template", options->chat_template.name_or_text,
                      "A chat template's text, or a built-in name (chatml), in place of the "
                      "model's own");
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
  command->add_flag("--allow-special-in-content", options->special_in_content,
                    "Control tokens written in messages (<|im_start|>...) become those tokens, "
                    "as in llama-server; by default they stay text, so no message can fake a "
                    "turn");
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
