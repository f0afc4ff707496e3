// `ingot embed`: each input's embedding (pooled as `serve --embeddings`
// pools, normalized), one line of numbers per input, or JSON. Inputs are
// the -p texts, or the lines of -f FILE; they run through the engine
// together, as a server's would.

#include <cstdio>
#include <deque>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/embedding_pooling.h"
#include "cli/loaded_model.h"
#include "engine/engine.h"
#include "server/openai/embedding_response.h"
#include "util/thread_pool.h"

namespace ingot::cli {
namespace {

struct EmbedOptions {
  std::string model;
  std::vector<std::string> prompts;
  std::string file;
  std::string pooling;
  int64_t dimensions = 0;  // 0: all
  bool json = false;
  int threads = ThreadPool::default_thread_count();
};

// Inputs submitted ahead of the one being read: within the engine's queue.
constexpr size_t kInFlight = 16;

int fail(const std::string& message) {
  std::fprintf(stderr, "ingot embed: %s\n", message.c_str());
  return 1;
}

Result<std::vector<std::string>> read_inputs(const EmbedOptions& options) {
  std::vector<std::string> inputs = options.prompts;
  if (!options.file.empty()) {
    std::ifstream in(options.file);
    if (!in) return invalid_argument("cannot read " + options.file);
    for (std::string line; std::getline(in, line);) {
      if (!line.empty()) inputs.push_back(line);
    }
  }
  if (inputs.empty()) return invalid_argument("no input: give -p TEXT or -f FILE");
  return inputs;
}

void print(const std::vector<std::vector<float>>& embeddings, bool json) {
  if (json) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (size_t i = 0; i < embeddings.size(); ++i) {
      out.push_back({{"index", i}, {"embedding", embeddings[i]}});
    }
    std::printf("%s\n", out.dump().c_str());
    return;
  }
  for (const std::vector<float>& vector : embeddings) {
    for (size_t d = 0; d < vector.size(); ++d) std::printf(d ? " %.7g" : "%.7g", vector[d]);
    std::printf("\n");
  }
}

int embed(const EmbedOptions& options) {
  auto inputs = read_inputs(options);
  if (!inputs.ok()) return fail(inputs.error().describe());
  auto loaded = LoadedModel::load(options.model);
  if (!loaded.ok()) return fail(loaded.error().describe());
  engine::EngineOptions engine_options;
  engine_options.parallel = int32_t(std::min<size_t>(4, inputs->size()));
  engine_options.threads = options.threads;
  auto engine = engine::Engine::start(*loaded->model, *loaded->tokenizer, engine_options);
  if (!engine.ok()) return fail(engine.error().describe());
  const engine::Pooling pooling = embedding_pooling(options.pooling, loaded->model->config());
  std::optional<int64_t> dimensions;
  if (options.dimensions > 0) dimensions = options.dimensions;
  std::vector<std::vector<float>> embeddings;
  std::deque<engine::RequestHandle> in_flight;
  size_t next = 0;
  while (embeddings.size() < inputs->size()) {
    while (next < inputs->size() && in_flight.size() < kInFlight) {
      engine::GenerationRequest request;
      request.prompt = loaded->tokenizer->encode((*inputs)[next], true, true);
      request.max_tokens = 0;
      request.pooling = pooling;
      auto handle = (*engine)->submit(std::move(request));
      if (!handle.ok())
        return fail("input " + std::to_string(next) + ": " + handle.error().describe());
      in_flight.push_back(std::move(*handle));
      ++next;
    }
    engine::CollectedReply reply = engine::collect_reply(std::move(in_flight.front()));
    in_flight.pop_front();
    if (!reply.finish) return fail(reply.error ? reply.error->describe() : "the engine stopped");
    embeddings.push_back(
        server::finished_embedding(std::move(reply.finish->embedding), dimensions));
  }
  (*engine)->stop();
  print(embeddings, options.json);
  return 0;
}

}  // namespace

void register_embed(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<EmbedOptions>();
  CLI::App* command =
      app.add_subcommand("embed", "Print each input's embedding (normalized), one line each");
  command->add_option("-m,--model", options->model, "GGUF model file")->required();
  command->add_option("-p,--prompt", options->prompts, "An input (repeatable)");
  command->add_option("-f,--file", options->file, "A file of inputs, one a line");
  command->add_option("--pooling", options->pooling, "mean, last or cls (default: the file's)")
      ->check(CLI::IsMember({"mean", "last", "cls"}));
  command->add_option("--dimensions", options->dimensions, "Keep the first this many (0: all)")
      ->check(CLI::Range(int64_t{0}, int64_t{1} << 20));
  command->add_flag("--json", options->json, "Print [{\"index\", \"embedding\"}]");
  command->add_option("-t,--threads", options->threads, "Compute threads")
      ->capture_default_str()
      ->check(CLI::Range(1, 1024));
  command->callback([options, &exit_code] { exit_code = embed(*options); });
}

}  // namespace ingot::cli
