// Matmul kernel speed per weight type and path. Matvec (one token, decode)
// is reported as weight bytes streamed per second; batched (prefill) as
// multiply-adds per second. Weights are 8192 columns by `rows` rows: 2048
// (a 1B model's FFN matrix, which stays in a server CPU's L3 across
// iterations), 32768 (larger than any L3: streamed from memory, as decode
// streams a whole model) or 128 (L2-resident: the kernel's compute speed
// without the memory wall); and qwen2.5-0.5b's FFN
// shapes (4864 x 896 gate/up, 896 x 4864 down), whose short rows make the
// per-micro-tile setup and reduction count.
//
//   build/release/bench/ingot_kernel_benchmarks --benchmark_filter=q4_0
#include <benchmark/benchmark.h>

#include <random>
#include <string>
#include <vector>

#include "kernels/interleave.h"
#include "kernels/kernel_table.h"
#include "kernels/matmul.h"
#include "kernels/quantize.h"

namespace ingot::kernels {
namespace {

struct Fixture {
  std::vector<uint8_t> weights;
  WeightMatrix w;
  std::vector<float> input;
  std::vector<uint8_t> interleaved;

  Fixture(ElementType type, int64_t tokens, int64_t kRows, int64_t kCols, bool interleave) {
    std::mt19937 rng(1);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    const size_t row_size = *row_bytes(type, kCols);
    weights.resize(row_size * kRows);
    std::vector<float> row(kCols);
    for (int64_t r = 0; r < kRows; ++r) {
      for (auto& v : row) v = normal(rng);
      quantize_row(type, row.data(), weights.data() + r * row_size, kCols);
    }
    w = WeightMatrix{type, weights.data(), kRows, kCols, row_size};
    if (interleave) {
      const size_t stride = interleaved_row_bytes(type, kCols);
      interleaved.resize(stride * kRows);
      for (int64_t r = 0; r < kRows; ++r) {
        interleave_weight_row(type, weights.data() + r * row_size, kCols,
                              interleaved.data() + r * stride);
      }
      w.interleaved = interleaved.data();
      w.interleaved_stride = stride;
    }
    input.resize(tokens * kCols);
    for (auto& v : input) v = normal(rng);
  }
};

void run(benchmark::State& state, ElementType type, Isa isa, bool interleave) {
  if (!isa_available(isa)) {
    state.SkipWithError("path not available on this CPU");
    return;
  }
  const int64_t tokens = state.range(0);
  const int threads = static_cast<int>(state.range(1));
  const int64_t kRows = state.range(2);
  const int64_t kCols = state.range(3);
  set_isa_override(isa);
  Fixture f(type, tokens, kRows, kCols, interleave);
  ThreadPool pool(threads);
  PackedActivations x;
  x.pack(f.input.data(), tokens, kCols, type, pool);
  std::vector<float> y(tokens * kRows);
  for (auto _ : state) {
    matmul(f.w, x, y.data(), kRows, pool);
    benchmark::DoNotOptimize(y.data());
  }
  set_isa_override(std::nullopt);
  const double iterations = static_cast<double>(state.iterations());
  state.counters["GB/s"] = benchmark::Counter(
      static_cast<double>(f.weights.size()) * iterations / 1e9, benchmark::Counter::kIsRate);
  state.counters["GMAC/s"] = benchmark::Counter(
      static_cast<double>(kRows * kCols * tokens) * iterations / 1e9, benchmark::Counter::kIsRate);
}

void register_all() {
  const ElementType types[] = {ElementType::kQ4_0, ElementType::kQ8_0, ElementType::kF16,
                               ElementType::kQ4_K, ElementType::kQ6_K, ElementType::kQ5_0,
                               ElementType::kQ4_1, ElementType::kQ5_K, ElementType::kQ3_K,
                               ElementType::kQ2_K, ElementType::kIQ4_NL, ElementType::kIQ4_XS};
  for (ElementType type : types) {
    for (Isa isa : kAllIsas) {
      // A path with interleaved kernels also multiplies in the interleaved layout.
      const KernelTable* path = kernel_table(isa);
      const bool interleave = path != nullptr && path->interleaves(type);
      for (bool layout : interleave ? std::vector<bool>{false, true} : std::vector<bool>{false}) {
        const std::string name = std::string(element_type_name(type)) + "/" +
                                 std::string(isa_name(isa)) + (layout ? "-interleaved" : "");
        auto* b = benchmark::RegisterBenchmark(
            name.c_str(), [type, isa, layout](benchmark::State& s) { run(s, type, isa, layout); });
        b->ArgNames({"tokens", "threads", "rows", "cols"})
            ->Args({1, 1, 2048, 8192})
            ->Args({1, 2, 2048, 8192})
            ->Args({1, 1, 128, 8192})
            ->Args({4, 1, 128, 8192})
            ->Args({4, 1, 2048, 8192})
            ->Args({4, 2, 2048, 8192})
            ->Args({64, 1, 128, 8192})
            ->Args({64, 2, 2048, 8192})
            ->Args({1, 2, 4864, 896})
            ->Args({4, 2, 4864, 896})
            ->Args({1, 2, 896, 4864})
            ->Args({4, 2, 896, 4864})
            ->Args({1, 2, 151936, 896})  // Qwen2.5-0.5B's output projection
            ->Args({4, 2, 151936, 896})
            ->Args({1, 2, 32768, 8192})
            ->Args({4, 2, 32768, 8192})
            ->UseRealTime();
        b->Unit(benchmark::kMicrosecond);
      }
    }
  }
}

const int registered = (register_all(), 0);

}  // namespace
}  // namespace ingot::kernels
