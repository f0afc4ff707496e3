// Golden parity with llama.cpp with keys and values cached in Q8_0 or Q4_0:
// the fixtures in tests/fixtures/golden/kv were made by llama.cpp with
// the same cache types (-ctk TYPE -ctv TYPE, flash attention on, as its
// quantized V cache needs; see that folder's README). Both programs turn
// keys and values by the same Hadamard rotation before quantizing them, so
// they store nearly the same quants; Q8_0 is held to the quantized
// weights' tolerance, Q4_0 (reported) to a looser one.

#include <gtest/gtest.h>

#include <string>

#include "model/golden_parity.h"
#include "support/shared_data.h"

namespace ingot::model {
namespace {

using namespace golden;

// Q4_0 keeps 4 bits a value: one rounding apart in the two programs moves
// a score more than Q8_0's does.
constexpr double kQ4CacheTolerance = 0.02;

struct KvCase {
  const char* model;  // in ../shared/models
  kernels::ElementType type;
};

std::string type_name(kernels::ElementType type) {
  return type == kernels::ElementType::kQ8_0 ? "q8_0" : "q4_0";
}

class QuantizedKvGoldenParity : public ::testing::TestWithParam<KvCase> {};

TEST_P(QuantizedKvGoldenParity, TeacherForcedLogitsMatchLlamaCppAtTheSameCacheType) {
  INGOT_REQUIRE_SHARED();
  const KvCase& c = GetParam();
  const std::string name = std::string(c.model) + "-kv-" + type_name(c.type);
  auto model = Model::load(
      ::ingot::testing::shared_path(std::string("models/") + c.model + ".gguf").string());
  ASSERT_TRUE(model.ok()) << model.error().describe();
  const std::vector<GoldenCase> cases = read_golden_file(
      (::ingot::testing::source_dir() / "tests/fixtures/golden/kv" / (name + ".json")).string());
  ThreadPool pool(2);
  const double tolerance =
      c.type == kernels::ElementType::kQ8_0 ? kQuantizedTolerance : kQ4CacheTolerance;
  const KvCache::Types types{c.type, c.type};
  run_sequentially(**model, cases, tolerance, pool, types).expect_within(tolerance, name);
  run_interleaved(**model, cases, tolerance, pool, types)
      .expect_within(tolerance, name + " (batched)");
}

INSTANTIATE_TEST_SUITE_P(
    SharedModels, QuantizedKvGoldenParity,
    ::testing::Values(KvCase{"small-llama-f16", kernels::ElementType::kQ8_0},
                      KvCase{"small-llama-q8_0", kernels::ElementType::kQ8_0},
                      KvCase{"small-llama-q4_k_m", kernels::ElementType::kQ8_0},
                      KvCase{"small-llama-f16", kernels::ElementType::kQ4_0},
                      KvCase{"small-llama-q8_0", kernels::ElementType::kQ4_0},
                      KvCase{"small-llama-q4_k_m", kernels::ElementType::kQ4_0}),
    [](const ::testing::TestParamInfo<KvCase>& info) {
      std::string name = std::string(info.param.model) + "_kv_" + type_name(info.param.type);
      for (char& ch : name) {
        if (ch == '-') ch = '_';
      }
      return name;
    });

}  // namespace
}  // namespace ingot::model
