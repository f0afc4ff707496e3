// Grammar-constrained decoding costs, on Qwen's 151k-token vocabulary.
//
// grammar_mask_walk/<grammar>: one uncached mask (a full trie walk) for
//   states met along random generations under the grammar.
// grammar_mask_per_token/<grammar>: what a generation pays per token:
//   mask (cached by state, cache cold at the start of each generation) and
//   advance, over 64-token random generations (items/s = tokens/s).
// grammar_decode/<0|1>: engine decode tokens/s without (0) and with (1)
//   the JSON-object grammar on a random-weight qwen2.5-0.5b Q4_0 model:
//     build/release/ingot-synth --shape qwen2.5-0.5b --type q4_0
//       --vocab-from ../shared/models/tiny-qwen2-f16.gguf --out /tmp/q05.gguf
//     INGOT_BENCH_QWEN05=/tmp/q05.gguf build/release/bench/ingot_benchmarks
//       --benchmark_filter=grammar
//   (skipped when INGOT_BENCH_QWEN05 is unset).

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "gguf/reader.h"
#include "model/model.h"
#include "sampling/grammar/builtin.h"
#include "sampling/grammar/gbnf_parser.h"
#include "sampling/grammar/token_masker.h"
#include "tokenizer/tokenizer.h"

namespace {

namespace fs = std::filesystem;
using namespace ingot::sampling::grammar;

fs::path shared_dir() {
  const char* env = std::getenv("INGOT_SHARED_DIR");
  return env != nullptr ? fs::path(env) : fs::path(INGOT_SHARED_DIR_DEFAULT);
}

// An object with 20 required properties of mixed types, the shape a
// JSON-schema converter produces.
std::string twenty_property_gbnf() {
  static const char* kTypes[] = {"string", "integer", "boolean", "number"};
  std::string root = "root ::= \"{\" ws";
  for (int i = 0; i < 20; ++i) {
    if (i > 0) root += " \",\" ws";
    root += fmt::format(" \"\\\"property_{}\\\"\" ws \":\" ws {}", i, kTypes[i % 4]);
  }
  root += " \"}\"\n";
  return root +
         R"(string  ::= "\"" ([^"\\\x00-\x1F] | "\\" (["\\/bfnrt] | "u" [0-9a-fA-F]{4}))* "\"" ws
integer ::= "-"? ("0" | [1-9] [0-9]{0,15}) ws
number  ::= integer ("." [0-9]+)? ([eE] [-+]? [0-9]+)? ws
boolean ::= ("true" | "false") ws
ws      ::= [ \t\n]{0,20}
)";
}

struct Vocabulary {
  std::unique_ptr<ingot::tokenizer::Tokenizer> tokenizer;
  std::shared_ptr<const TokenTrie> trie;
};

const Vocabulary& qwen() {
  static const Vocabulary vocabulary = [] {
    Vocabulary v;
    auto file = ingot::gguf::GgufFile::open((shared_dir() / "models/tiny-qwen3-f16.gguf").string());
    if (!file.ok()) return v;
    auto tok = ingot::tokenizer::Tokenizer::from_gguf(*file);
    if (!tok.ok()) return v;
    v.tokenizer = std::make_unique<ingot::tokenizer::Tokenizer>(std::move(*tok));
    v.trie = TokenTrie::for_tokenizer(*v.tokenizer);
    return v;
  }();
  return vocabulary;
}

std::shared_ptr<const Grammar> grammar_by_index(int64_t index) {
  auto grammar = parse_gbnf(index == 0 ? std::string(kJsonObjectGbnf) : twenty_property_gbnf());
  return grammar.ok() ? *grammar : nullptr;
}

// Picks a random allowed token, preferring short ASCII-ish progress the
// way a trained model would not; good enough to visit varied states.
int32_t pick(const TokenMask& mask, std::mt19937& rng) {
  for (int tries = 0; tries < 1000000; ++tries) {
    auto id = static_cast<int32_t>(rng() % static_cast<uint32_t>(mask.size()));
    if (mask.allows(id)) return id;
  }
  return -1;
}

// States along random generations (64 tokens each) from the grammar's start.
std::vector<GrammarMatcher> sample_states(const std::shared_ptr<const Grammar>& grammar,
                                          int generations) {
  const Vocabulary& v = qwen();
  TokenMasker masker(v.trie);
  std::vector<GrammarMatcher> states;
  std::mt19937 rng(7);
  for (int g = 0; g < generations; ++g) {
    GrammarMatcher matcher(grammar);
    for (int t = 0; t < 64 && !matcher.must_end(); ++t) {
      states.push_back(matcher);
      auto mask = masker.mask(matcher);
      int32_t id = pick(*mask, rng);
      if (id < 0 || v.tokenizer->is_end_of_generation(id)) break;
      if (!matcher.accept_bytes(v.tokenizer->token_to_piece(id, true))) break;
    }
  }
  return states;
}

void grammar_mask_walk(benchmark::State& state) {
  if (!qwen().trie) return state.SkipWithError("../shared/models/tiny-qwen3-f16.gguf not found");
  auto states = sample_states(grammar_by_index(state.range(0)), 2);
  TokenMasker masker(qwen().trie);
  TokenMask mask;
  size_t i = 0;
  for (auto _ : state) {
    masker.fill(states[i++ % states.size()], mask);
    benchmark::DoNotOptimize(mask);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(grammar_mask_walk)
    ->Arg(0)
    ->Arg(1)
    ->ArgNames({"json_or_20_props"})
    ->Unit(benchmark::kMillisecond);

// Token sequences of random generations under the grammar, drawn once
// so that the timed loop measures masking and advancing only.
std::vector<std::vector<std::string>> sample_generations(
    const std::shared_ptr<const Grammar>& grammar, int count) {
  const Vocabulary& v = qwen();
  TokenMasker masker(v.trie);
  std::mt19937 rng(11);
  std::vector<std::vector<std::string>> generations;
  for (int g = 0; g < count; ++g) {
    GrammarMatcher matcher(grammar);
    std::vector<std::string> pieces;
    for (int t = 0; t < 64 && !matcher.must_end(); ++t) {
      int32_t id = pick(*masker.mask(matcher), rng);
      if (id < 0 || v.tokenizer->is_end_of_generation(id)) break;
      pieces.push_back(v.tokenizer->token_to_piece(id, true));
      matcher.accept_bytes(pieces.back());
    }
    generations.push_back(std::move(pieces));
  }
  return generations;
}

void grammar_mask_per_token(benchmark::State& state) {
  if (!qwen().trie) return state.SkipWithError("../shared/models/tiny-qwen3-f16.gguf not found");
  auto grammar = grammar_by_index(state.range(0));
  auto generations = sample_generations(grammar, 8);
  int64_t tokens = 0;
  size_t g = 0;
  for (auto _ : state) {
    TokenMasker masker(qwen().trie);  // a cold cache for every generation
    GrammarMatcher matcher(grammar);
    for (const std::string& piece : generations[g++ % generations.size()]) {
      benchmark::DoNotOptimize(masker.mask(matcher));
      matcher.accept_bytes(piece);
      ++tokens;
    }
  }
  state.SetItemsProcessed(tokens);
}
BENCHMARK(grammar_mask_per_token)
    ->Arg(0)
    ->Arg(1)
    ->ArgNames({"json_or_20_props"})
    ->Unit(benchmark::kMillisecond);

void grammar_decode(benchmark::State& state) {
  const char* path = std::getenv("INGOT_BENCH_QWEN05");
  if (path == nullptr)
    return state.SkipWithError("set INGOT_BENCH_QWEN05 to a qwen2.5-0.5b Q4_0 GGUF");
  static auto model = ingot::model::Model::load(path);
  if (!model.ok()) return state.SkipWithError(model.error().describe().c_str());
  static auto tokenizer = ingot::tokenizer::Tokenizer::from_gguf((*model)->file());
  if (!tokenizer.ok()) return state.SkipWithError(tokenizer.error().describe().c_str());
  ingot::engine::EngineOptions options;
  options.parallel = 1;
  options.context_size = 512;
  auto engine = ingot::engine::Engine::start(**model, *tokenizer, options);
  if (!engine.ok()) return state.SkipWithError(engine.error().describe().c_str());
  auto grammar = grammar_by_index(0);
  uint64_t seed = 1;
  auto generate = [&]() -> int64_t {
    ingot::engine::GenerationRequest request;
    request.prompt = tokenizer->encode(
        "<|im_start|>user\nJSON please<|im_end|>\n<|im_start|>assistant\n", false, true);
    request.sampling.temperature = 1.0f;
    request.sampling.seed = seed++;
    request.max_tokens = 24;
    if (state.range(0) == 1) request.sampling.grammar = grammar;
    auto handle = (*engine)->submit(std::move(request));
    if (!handle.ok()) return -1;
    return static_cast<int64_t>(ingot::engine::collect_reply(std::move(*handle)).tokens.size());
  };
  // Untimed: the engine builds its vocabulary trie at the first grammar.
  if (generate() < 0) return state.SkipWithError("submit failed");
  int64_t tokens = 0;
  for (auto _ : state) {
    // Prefill (the same either way) is in the time too.
    tokens += generate();
  }
  state.SetItemsProcessed(tokens);
}
// The engine decodes on its own threads: rates are per wall-clock second.
BENCHMARK(grammar_decode)
    ->Arg(0)
    ->Arg(1)
    ->ArgNames({"grammar"})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3)
    ->UseRealTime();

}  // namespace
