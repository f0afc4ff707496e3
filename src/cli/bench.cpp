// `ingot bench`: prefill and decode speed like llama-bench. pp<N> times one
// batch of N prompt tokens, tg<N> decodes N tokens one step at a time from
// an empty context, and tg<N> xB decodes N steps of B sequences together
// (aggregate tokens/s). Each test is repeated -r times after a warm-up and
// reported as mean ± standard deviation.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "cli/cache_type_options.h"
#include "cli/commands.h"
#include "cli/draft_bench.h"
#include "cli/loaded_model.h"
#include "kernels/dispatch.h"
#include "model/model.h"
#include "util/thread_pool.h"

namespace ingot::cli {
namespace {

// Memory bandwidth two cores of the reference machine sustain; decode can
// go no faster than the weights it must stream per token allow.
constexpr double kReferenceBandwidth = 40e9;

struct BenchOptions {
  std::string model;
  int n_prompt = 512;
  int n_gen = 128;
  int repetitions = 3;
  int threads = ThreadPool::default_thread_count();
  int parallel = 1;
  bool json = false;
  bool mtp = false;  // also decode through the engine with and without drafts
  int draft_max = 3;
  int depth = 0;  // positions each sequence holds before tg starts (llama-bench's -d)
  CacheTypeNames cache_types;
};

struct TestResult {
  std::string name;
  int n_prompt = 0;
  int n_gen = 0;
  int n_parallel = 1;
  std::vector<double> tokens_per_second;

  double mean() const {
    double sum = 0;
    for (double v : tokens_per_second) sum += v;
    return sum / double(tokens_per_second.size());
  }
  double stddev() const {
    if (tokens_per_second.size() < 2) return 0.0;
    const double m = mean();
    double squares = 0;
    for (double v : tokens_per_second) squares += (v - m) * (v - m);
    return std::sqrt(squares / double(tokens_per_second.size() - 1));
  }
};

// Seeded random tokens: the speed of a forward pass does not depend on them.
class TokenSource {
 public:
  explicit TokenSource(int64_t n_vocab) : pick_(0, int32_t(n_vocab - 1)) {}
  int32_t next() { return pick_(rng_); }

 private:
  std::mt19937 rng_{1234};
  std::uniform_int_distribution<int32_t> pick_;
};

class Bench {
 public:
  Bench(model::Model& model, ThreadPool& pool, int64_t n_cells, model::KvCache::Types types,
        int depth)
      : model_(model),
        pool_(pool),
        cache_(model.make_cache(n_cells, 0, types)),
        tokens_(model.config().n_vocab),
        depth_(depth) {}

  // Seconds to prefill n tokens of one sequence in one batch.
  Result<double> prefill(int n) {
    cache_.clear();
    batch_.clear();
    for (int i = 0; i < n; ++i) batch_.add(tokens_.next(), i, 0, i + 1 == n);
    return timed_forward();
  }

  // Seconds to decode n steps of `n_sequences` sequences, one token each,
  // after `depth` positions of each (prefilled, not timed).
  Result<double> decode(int n, int n_sequences) {
    cache_.clear();
    for (int s = 0; s < n_sequences; ++s) INGOT_RETURN_IF_ERROR(fill(s));
    double seconds = 0;
    for (int step = 0; step < n; ++step) {
      batch_.clear();
      for (int s = 0; s < n_sequences; ++s) batch_.add(tokens_.next(), depth_ + step, s, true);
      INGOT_ASSIGN_OR_RETURN(double step_seconds, timed_forward());
      seconds += step_seconds;
    }
    return seconds;
  }

 private:
  Result<double> timed_forward() {
    const auto start = std::chrono::steady_clock::now();
    INGOT_RETURN_IF_ERROR(model_.forward(batch_, cache_, pool_).status());
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }

  Status fill(int sequence) {
    constexpr int kChunk = 512;
    for (int at = 0; at < depth_; at += kChunk) {
      batch_.clear();
      const int end = std::min(depth_, at + kChunk);
      for (int p = at; p < end; ++p) batch_.add(tokens_.next(), p, sequence, p + 1 == end);
      INGOT_RETURN_IF_ERROR(model_.forward(batch_, cache_, pool_).status());
    }
    return {};
  }

  model::Model& model_;
  ThreadPool& pool_;
  model::KvCache cache_;
  model::Batch batch_;
  TokenSource tokens_;
  int depth_;
};

Status run_tests(Bench& bench, const BenchOptions& options, std::vector<TestResult>& results) {
  // Warm-up: page the weights in and let the pool's threads settle.
  INGOT_RETURN_IF_ERROR(bench.prefill(std::min(options.n_prompt, 32)).status());
  INGOT_RETURN_IF_ERROR(bench.decode(2, 1).status());
  if (options.n_prompt > 0) {
    TestResult pp{"pp" + std::to_string(options.n_prompt), options.n_prompt, 0, 1, {}};
    for (int r = 0; r < options.repetitions; ++r) {
      INGOT_ASSIGN_OR_RETURN(double seconds, bench.prefill(options.n_prompt));
      pp.tokens_per_second.push_back(options.n_prompt / seconds);
    }
    results.push_back(pp);
  }
  if (options.n_gen <= 0) return {};
  std::vector<int> widths = {1};
  if (options.parallel > 1) widths.push_back(options.parallel);
  for (int width : widths) {
    std::string name = "tg" + std::to_string(options.n_gen);
    if (width > 1) name += " x" + std::to_string(width);
    if (options.depth > 0) name += " @ d" + std::to_string(options.depth);
    TestResult tg{name, 0, options.n_gen, width, {}};
    for (int r = 0; r < options.repetitions; ++r) {
      INGOT_ASSIGN_OR_RETURN(double seconds, bench.decode(options.n_gen, width));
      tg.tokens_per_second.push_back(double(options.n_gen) * width / seconds);
    }
    results.push_back(tg);
  }
  return {};
}

// What the model is, for the report.
struct ModelFacts {
  std::string name;
  std::string weight_type;  // the type holding most of the weights
  uint64_t file_bytes = 0;
  uint64_t parameters = 0;
  uint64_t bytes_per_token = 0;  // weights one decode step streams
};

ModelFacts describe(const model::Model& model) {
  ModelFacts facts;
  facts.name = model.config().name;
  std::map<kernels::ElementType, uint64_t> bytes_by_type;
  for (const gguf::TensorInfo& tensor : model.file().tensors()) {
    facts.file_bytes += tensor.n_bytes;
    facts.parameters += uint64_t(tensor.element_count());
    if (tensor.dims.size() == 2) bytes_by_type[tensor.type] += tensor.n_bytes;
  }
  auto largest = std::max_element(bytes_by_type.begin(), bytes_by_type.end(),
                                  [](auto& a, auto& b) { return a.second < b.second; });
  if (largest != bytes_by_type.end()) {
    facts.weight_type = std::string(kernels::element_type_name(largest->first));
  }
  auto matrix_bytes = [](const kernels::WeightMatrix& w) {
    return uint64_t(w.rows) * w.row_stride;
  };
  for (const model::LayerWeights& layer : model.weights().layers) {
    for (const kernels::WeightMatrix* w :
         {&layer.wq, &layer.wk, &layer.wv, &layer.wo, &layer.gate, &layer.up, &layer.down}) {
      facts.bytes_per_token += matrix_bytes(*w);
    }
  }
  facts.bytes_per_token += matrix_bytes(model.weights().output);
  return facts;
}

void print_table(const ModelFacts& facts, const BenchOptions& options,
                 const std::vector<TestResult>& results) {
  std::printf("| model | type | size | params | threads | test | t/s |\n");
  std::printf("| --- | --- | ---: | ---: | ---: | --- | ---: |\n");
  for (const TestResult& r : results) {
    std::printf("| %s | %s | %.2f MiB | %.1f M | %d | %s | %.2f ± %.2f |\n", facts.name.c_str(),
                facts.weight_type.c_str(), facts.file_bytes / 1048576.0, facts.parameters / 1e6,
                options.threads, r.name.c_str(), r.mean(), r.stddev());
  }
  std::printf("\n%s kernels\n", std::string(kernels::isa_name(kernels::active_isa())).c_str());
  const double bound = kReferenceBandwidth / double(facts.bytes_per_token);
  std::printf("\ndecode streams %.1f MiB of weights per step: at 40 GB/s at most %.1f t/s",
              facts.bytes_per_token / 1048576.0, bound);
  for (const TestResult& r : results) {
    if (r.n_gen > 0 && r.n_parallel == 1)
      std::printf("; %s is %.0f%% of it", r.name.c_str(), 100 * r.mean() / bound);
  }
  std::printf("\n");
}

void print_json(const ModelFacts& facts, const BenchOptions& options,
                const std::vector<TestResult>& results) {
  nlohmann::json report = {{"model", facts.name},
                           {"model_type", facts.weight_type},
                           {"model_size", facts.file_bytes},
                           {"model_n_params", facts.parameters},
                           {"n_threads", options.threads},
                           {"isa", std::string(kernels::isa_name(kernels::active_isa()))},
                           {"weight_bytes_per_decode_step", facts.bytes_per_token},
                           {"results", nlohmann::json::array()}};
  for (const TestResult& r : results) {
    report["results"].push_back({{"test", r.name},
                                 {"n_prompt", r.n_prompt},
                                 {"n_gen", r.n_gen},
                                 {"n_parallel", r.n_parallel},
                                 {"avg_ts", r.mean()},
                                 {"stddev_ts", r.stddev()},
                                 {"samples_ts", r.tokens_per_second}});
  }
  std::printf("%s\n", report.dump(2).c_str());
}

int report_drafts(model::Model& model, const BenchOptions& options) {
  auto drafts =
      bench_drafts(model, options.n_gen, options.draft_max, options.threads, options.repetitions);
  if (!drafts.ok()) {
    std::fprintf(stderr, "error: %s\n", drafts.error().describe().c_str());
    return 1;
  }
  const double share = drafts->drafted > 0 ? double(drafts->accepted) / double(drafts->drafted) : 0;
  std::printf(
      "\ntg%d through the engine: %.2f t/s; with --mtp (%d drafts per step): %.2f t/s (%.2fx), "
      "%lld of %lld drafts accepted (%.1f%%)\n",
      options.n_gen, drafts->plain_tokens_per_second, options.draft_max,
      drafts->drafted_tokens_per_second,
      drafts->drafted_tokens_per_second / drafts->plain_tokens_per_second,
      static_cast<long long>(drafts->accepted), static_cast<long long>(drafts->drafted),
      100.0 * share);
  return 0;
}

int bench(const BenchOptions& options) {
  auto loaded = model::Model::load(options.model);
  Status usable =
      loaded.ok() ? check_generates_token_by_token((*loaded)->config()) : loaded.status();
  if (!usable.ok()) {
    std::fprintf(stderr, "error: %s\n", usable.error().describe().c_str());
    return 1;
  }
  ThreadPool pool(options.threads);
  // Each sequence takes whole cache blocks.
  const int64_t block = model::KvCache::kDefaultBlockSize;
  const int64_t decode_cells =
      (options.depth + options.n_gen + block - 1) / block * block * options.parallel;
  const int64_t n_cells = std::max<int64_t>({options.n_prompt, decode_cells, 32});
  const model::KvCache::Types types = cache_types(options.cache_types);
  if (Status usable = (*loaded)->check_cache_types(types); !usable.ok()) {
    std::fprintf(stderr, "error: %s\n", usable.error().describe().c_str());
    return 1;
  }
  (*loaded)->prepare_for_context(options.depth + options.n_gen);
  Bench bench(**loaded, pool, n_cells, types, options.depth);
  std::vector<TestResult> results;
  Status status = run_tests(bench, options, results);
  if (!status.ok()) {
    std::fprintf(stderr, "error: %s\n", status.error().describe().c_str());
    return 1;
  }
  const ModelFacts facts = describe(**loaded);
  if (options.json) {
    print_json(facts, options, results);
  } else {
    print_table(facts, options, results);
  }
  if (options.mtp && options.n_gen > 1) return report_drafts(**loaded, options);
  return 0;
}

}  // namespace

void register_bench(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<BenchOptions>();
  CLI::App* command = app.add_subcommand("bench", "Measure prefill and decode speed");
  command->add_option("-m,--model", options->model, "GGUF model file")->required();
  command->add_option("-p,--n-prompt", options->n_prompt, "Prompt tokens for pp")
      ->capture_default_str()
      ->check(CLI::Range(0, 1 << 16));
  command->add_option("-n,--n-gen", options->n_gen, "Tokens to decode for tg")
      ->capture_default_str()
      ->check(CLI::Range(0, 1 << 16));
  command->add_option("-r,--repetitions", options->repetitions, "Runs of each test")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000));
  command->add_option("-t,--threads", options->threads, "Compute threads")
      ->capture_default_str()
      ->check(CLI::Range(1, 1024));
  command
      ->add_option("--parallel", options->parallel,
                   "Also decode this many sequences together (aggregate t/s)")
      ->capture_default_str()
      ->check(CLI::Range(1, 256));
  command->add_flag("--json", options->json, "Print the results as JSON");
  command->add_flag("--mtp", options->mtp,
                    "Also decode through the engine with the model's multi-token-prediction "
                    "drafts, and without");
  command
      ->add_option("-d,--depth", options->depth,
                   "Positions each sequence holds before tg is timed (llama-bench's -d)")
      ->check(CLI::Range(0, 1 << 20))
      ->capture_default_str();
  add_cache_type_options(*command, options->cache_types);
  command->add_option("--draft-max", options->draft_max, "Tokens drafted per step with --mtp")
      ->capture_default_str()
      ->check(CLI::Range(1, 16));
  command->callback([options, &exit_code] { exit_code = bench(*options); });
}

}  // namespace ingot::cli
