#include "cli/draft_bench.h"

#include <memory>

#include "engine/engine.h"
#include "tokenizer/tokenizer.h"

namespace ingot::cli {
namespace {

// Decode tokens per second of one greedy reply of n_gen tokens (the time
// after its first token over the tokens after it). The end-of-generation
// tokens are banned, so that a random model's reply runs its length.
Result<double> decode_rate(engine::Engine& engine, const tokenizer::Tokenizer& tokenizer,
                           const std::vector<int32_t>& prompt, int n_gen) {
  engine::GenerationRequest request;
  request.prompt = prompt;
  request.sampling.temperature = 0.0f;
  for (int32_t id = 0; id < tokenizer.vocab().size(); ++id) {
    if (tokenizer.is_end_of_generation(id)) request.sampling.logit_bias.emplace_back(id, -1e9f);
  }
  request.max_tokens = n_gen;
  INGOT_ASSIGN_OR_RETURN(engine::RequestHandle handle, engine.submit(std::move(request)));
  engine::CollectedReply reply = engine::collect_reply(std::move(handle));
  if (reply.error) return *reply.error;
  if (!reply.finish) return internal_error("the reply did not finish");
  const engine::Usage& usage = reply.finish->usage;
  const double seconds = (usage.total_ms - usage.time_to_first_token_ms) / 1000.0;
  if (usage.completion_tokens < 2 || seconds <= 0) return internal_error("too few tokens to time");
  return double(usage.completion_tokens - 1) / seconds;
}

Result<double> mean_rate(model::Model& model, const tokenizer::Tokenizer& tokenizer,
                         engine::EngineOptions options, const std::vector<int32_t>& prompt,
                         int n_gen, int repetitions, engine::EngineStats* stats) {
  INGOT_ASSIGN_OR_RETURN(std::unique_ptr<engine::Engine> engine,
                         engine::Engine::start(model, tokenizer, options));
  INGOT_RETURN_IF_ERROR(decode_rate(*engine, tokenizer, prompt, 8).status());  // warm-up
  double sum = 0;
  for (int r = 0; r < repetitions; ++r) {
    INGOT_ASSIGN_OR_RETURN(double rate, decode_rate(*engine, tokenizer, prompt, n_gen));
    sum += rate;
  }
  if (stats) *stats = engine->stats();
  return sum / repetitions;
}

}  // namespace

Result<DraftBenchResult> bench_drafts(model::Model& model, int n_gen, int drafts, int threads,
                                      int repetitions) {
  INGOT_ASSIGN_OR_RETURN(tokenizer::Tokenizer tokenizer,
                         tokenizer::Tokenizer::from_gguf(model.file()));
  const std::vector<int32_t> prompt = tokenizer.encode("Once upon a time", true, false);
  engine::EngineOptions options;
  options.parallel = 1;
  options.threads = threads;
  options.context_size = int64_t(prompt.size()) + n_gen + 8;
  DraftBenchResult result;
  INGOT_ASSIGN_OR_RETURN(result.plain_tokens_per_second,
                         mean_rate(model, tokenizer, options, prompt, n_gen, repetitions, nullptr));
  options.draft_tokens = drafts;
  engine::EngineStats stats;
  INGOT_ASSIGN_OR_RETURN(result.drafted_tokens_per_second,
                         mean_rate(model, tokenizer, options, prompt, n_gen, repetitions, &stats));
  result.drafted = stats.drafted_tokens;
  result.accepted = stats.accepted_drafts;
  return result;
}

}  // namespace ingot::cli
