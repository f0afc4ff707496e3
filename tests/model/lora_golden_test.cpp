// LoRA adapters against llama.cpp (its --lora, through
// llama_set_adapters_lora): teacher-forced logits of the tiny model with
// adapter a (ingot-synth --lora-rank 8 --seed 11) at scales 1 and 0.5,
// adapter b (seed 12), both at once, and none; then one batch whose
// sequences run with different adapters and none, each against its own
// golden. The fixtures' commands are in tests/fixtures/golden/README.md.

#include <gtest/gtest.h>

#include "model/golden_parity.h"
#include "model/lora_adapter.h"
#include "support/shared_data.h"
#include "support/synthetic_model.h"

namespace ingot::model {
namespace {

using namespace golden;

std::vector<GoldenCase> read_fixture(const std::string& name) {
  return read_golden_file(
      (ingot::testing::source_dir() / "tests/fixtures/golden" / (name + ".json")).string());
}

struct Adapted {
  std::unique_ptr<Model> model;
  std::shared_ptr<const LoraAdapter> a, b;
};

Adapted load_tiny_with_adapters() {
  Adapted out;
  auto model = Model::load(ingot::testing::synthetic_model("tiny", "f16"));
  EXPECT_TRUE(model.ok()) << model.error().describe();
  if (!model.ok()) return out;
  out.model = std::move(model).value();
  auto a = LoraAdapter::load(ingot::testing::synthetic_lora("tiny", 11), out.model->config());
  auto b = LoraAdapter::load(ingot::testing::synthetic_lora("tiny", 12), out.model->config());
  EXPECT_TRUE(a.ok()) << a.error().describe();
  EXPECT_TRUE(b.ok()) << b.error().describe();
  if (a.ok()) out.a = *a;
  if (b.ok()) out.b = *b;
  return out;
}

TEST(LoraGoldenParity, EachAdapterAndScaleMatchesLlamaCpp) {
  INGOT_REQUIRE_SHARED();
  Adapted t = load_tiny_with_adapters();
  ASSERT_TRUE(t.model && t.a && t.b);
  ThreadPool pool(2);
  const LoraSet none, a{{t.a.get(), 1.0f}}, a_half{{t.a.get(), 0.5f}}, b{{t.b.get(), 1.0f}},
      both{{t.a.get(), 1.0f}, {t.b.get(), 0.5f}};
  const std::pair<const char*, const LoraSet*> runs[] = {{"tiny-f16", &none},
                                                         {"tiny-f16-lora-a", &a},
                                                         {"tiny-f16-lora-a-0.5", &a_half},
                                                         {"tiny-f16-lora-b", &b},
                                                         {"tiny-f16-lora-a-b-0.5", &both}};
  for (const auto& [fixture, set] : runs) {
    const std::vector<GoldenCase> cases = read_fixture(fixture);
    const std::vector<const LoraSet*> lora(cases.size(), set);
    run_sequentially(*t.model, cases, kFloatTolerance, pool, {}, lora)
        .expect_within(kFloatTolerance, fixture);
  }
}

// One batch, four sequences: adapter a, adapter b, none, and a at half
// scale; the base matmuls run once for all of them.
TEST(LoraGoldenParity, ABatchMixingAdaptersMatchesEachOnesGolden) {
  INGOT_REQUIRE_SHARED();
  Adapted t = load_tiny_with_adapters();
  ASSERT_TRUE(t.model && t.a && t.b);
  ThreadPool pool(2);
  const LoraSet a{{t.a.get(), 1.0f}}, b{{t.b.get(), 1.0f}}, a_half{{t.a.get(), 0.5f}};
  std::vector<GoldenCase> cases = {read_fixture("tiny-f16-lora-a")[0],
                                   read_fixture("tiny-f16-lora-b")[1], read_fixture("tiny-f16")[2],
                                   read_fixture("tiny-f16-lora-a-0.5")[3]};
  const std::vector<const LoraSet*> lora = {&a, &b, nullptr, &a_half};
  run_interleaved(*t.model, cases, kFloatTolerance, pool, {}, lora)
      .expect_within(kFloatTolerance, "mixed adapters");
}

TEST(LoraAdapter, RefusesAnAdapterForAnotherModel) {
  INGOT_REQUIRE_SHARED();
  auto model = Model::load(ingot::testing::synthetic_model("tiny", "f16"));
  ASSERT_TRUE(model.ok());
  auto llama =
      LoraAdapter::load(ingot::testing::synthetic_lora("tiny-llama", 1), (*model)->config());
  ASSERT_FALSE(llama.ok());
  EXPECT_NE(llama.error().message().find("adapts a llama model"), std::string::npos)
      << llama.error().describe();
  auto not_adapter =
      LoraAdapter::load(ingot::testing::synthetic_model("tiny", "f16"), (*model)->config());
  ASSERT_FALSE(not_adapter.ok());
  EXPECT_NE(not_adapter.error().message().find("not a LoRA adapter"), std::string::npos);
}

}  // namespace
}  // namespace ingot::model
