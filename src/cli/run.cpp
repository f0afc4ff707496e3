// `ingot run`: completes a prompt and streams the text to stdout, one
// batched prefill and then one token per step. Greedy at --temp 0, else a
// plain temperature draw (the full sampling chain is the server's).

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/loaded_model.h"
#include "model/model.h"
#include "sampling/sampler.h"
#include "tokenizer/streaming_decoder.h"
#include "tokenizer/tokenizer.h"
#include "util/thread_pool.h"

namespace ingot::cli {
namespace {

struct RunOptions {
  std::string model;
  std::string prompt;
  int n_predict = 64;
  float temperature = 0.8f;
  uint64_t seed = 0;
  int threads = ThreadPool::default_thread_count();
};

// Temperature only: top-k, top-p and min-p are switched off.
sampling::SamplingParams temperature_sampling(const RunOptions& options) {
  sampling::SamplingParams params;
  params.temperature = options.temperature;
  params.top_k = 0;
  params.top_p = 1.0f;
  params.min_p = 0.0f;
  params.seed = options.seed;
  return params;
}

int fail(const Error& error) {
  std::fprintf(stderr, "error: %s\n", error.describe().c_str());
  return 1;
}

void report_speed(int64_t n_prompt, double prompt_seconds, int n_generated,
                  double generate_seconds) {
  std::fprintf(
      stderr,
      "\nprompt: %lld tokens in %.3f s (%.1f t/s); generated: %d tokens in %.3f s (%.1f t/s)\n",
      static_cast<long long>(n_prompt), prompt_seconds, n_prompt / prompt_seconds, n_generated,
      generate_seconds, n_generated > 0 ? n_generated / generate_seconds : 0.0);
}

int run(const RunOptions& options) {
  using Clock = std::chrono::steady_clock;
  auto loaded = model::Model::load(options.model);
  if (!loaded.ok()) return fail(loaded.error());
  model::Model& model = **loaded;
  if (Status generates = check_generates_token_by_token(model.config()); !generates.ok()) {
    return fail(generates.error());
  }
  auto tokenizer = tokenizer::Tokenizer::from_gguf(model.file());
  if (!tokenizer.ok()) return fail(tokenizer.error());

  const std::vector<int32_t> prompt = tokenizer->encode(options.prompt, true, true);
  if (prompt.empty()) return fail(invalid_argument("the prompt has no tokens"));
  const int64_t n_positions = int64_t(prompt.size()) + options.n_predict;
  if (n_positions > model.config().context_length) {
    return fail(Error(ErrorKind::kContextLengthExceeded,
                      "prompt plus -n is " + std::to_string(n_positions) +
                          " tokens; the model's context is " +
                          std::to_string(model.config().context_length)));
  }
  ThreadPool pool(options.threads);
  model::KvCache cache = model.make_cache(n_positions);
  sampling::Sampler sampler(temperature_sampling(options));
  tokenizer::DecodeOptions continuation;
  continuation.at_text_start = false;
  tokenizer::StreamingDecoder decoder(*tokenizer, continuation);

  model::Batch batch;
  for (size_t i = 0; i < prompt.size(); ++i) {
    batch.add(prompt[i], int64_t(i), 0, i + 1 == prompt.size());
  }
  const auto start = Clock::now();
  auto prefill_end = start;
  int n_generated = 0;
  for (int64_t position = int64_t(prompt.size()); n_generated < options.n_predict; ++position) {
    Result<model::Logits> logits = model.forward(batch, cache, pool);
    if (!logits.ok()) return fail(logits.error());
    if (n_generated == 0) prefill_end = Clock::now();
    const int32_t token = sampler.sample({logits->row(0), size_t(logits->n_vocab)}).id;
    if (tokenizer->is_end_of_generation(token)) break;
    sampler.accept(token);
    ++n_generated;
    std::fputs(decoder.push(token).c_str(), stdout);
    std::fflush(stdout);
    batch.clear();
    batch.add(token, position, 0, true);
  }
  std::fputs(decoder.flush().c_str(), stdout);
  std::fputs("\n", stdout);
  const std::chrono::duration<double> prefill = prefill_end - start;
  const std::chrono::duration<double> generate = Clock::now() - prefill_end;
  report_speed(int64_t(prompt.size()), prefill.count(), n_generated, generate.count());
  return 0;
}

}  // namespace

void register_run(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<RunOptions>();
  CLI::App* command = app.add_subcommand("run", "Complete a prompt and stream the text");
  command->add_option("-m,--model", options->model, "GGUF model file")->required();
  command->add_option("-p,--prompt", options->prompt, "The text to complete")->required();
  command->add_option("-n,--n-predict", options->n_predict, "Tokens to generate")
      ->capture_default_str()
      ->check(CLI::Range(0, 1 << 20));
  command->add_option("--temp", options->temperature, "Sampling temperature; 0 is greedy")
      ->capture_default_str()
      ->check(CLI::Range(0.0f, 100.0f));
  command->add_option("--seed", options->seed, "Seed of the sampler")->capture_default_str();
  command->add_option("-t,--threads", options->threads, "Compute threads")
      ->capture_default_str()
      ->check(CLI::Range(1, 1024));
  command->callback([options, &exit_code] { exit_code = run(*options); });
}

}  // namespace ingot::cli
