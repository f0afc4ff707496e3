// DiffusionGemma as ingot loads it: Gemma 4's mixture with a canvas, the
// sampler's defaults, an encoder and a decoder scale per layer, and the
// self-conditioning block.

#include <gtest/gtest.h>

#include "model/model.h"
#include "support/shared_data.h"
#include "support/synthetic_model.h"

namespace ingot::model {
namespace {

TEST(DiffusionModel, ReadsItsCanvasSamplerDefaultsAndGemma4Layout) {
  INGOT_REQUIRE_SHARED();
  auto model = Model::load(ingot::testing::synthetic_model("tiny-diffusion-gemma", "f16"));
  ASSERT_TRUE(model.ok()) << model.error().describe();
  const ModelConfig& c = (*model)->config();
  EXPECT_EQ(c.traits.architecture, Architecture::kDiffusionGemma);
  EXPECT_TRUE(c.traits.diffusion);
  EXPECT_TRUE(c.causal);  // the encoder's pass; canvases are bidirectional
  EXPECT_EQ(c.diffusion.canvas_length, 32);
  EXPECT_EQ(c.diffusion.max_steps, 48);
  EXPECT_FLOAT_EQ(c.diffusion.t_min, 0.4f);
  EXPECT_FLOAT_EQ(c.diffusion.t_max, 0.8f);
  EXPECT_FLOAT_EQ(c.diffusion.entropy_bound, 0.1f);
  EXPECT_EQ(c.diffusion.stability_steps, 1);
  EXPECT_FLOAT_EQ(c.diffusion.confidence, 0.005f);
  EXPECT_EQ(c.swa.layers, (std::vector<bool>{true, false, true, false}));
  EXPECT_EQ(c.experts.count, 8);
  EXPECT_FLOAT_EQ(c.gemma.final_softcap, 30.0f);
}

TEST(DiffusionModel, BindsBothScalesOfEachLayerAndTheSelfConditioningBlock) {
  INGOT_REQUIRE_SHARED();
  auto model = Model::load(ingot::testing::synthetic_model("tiny-diffusion-gemma", "f16"));
  ASSERT_TRUE(model.ok()) << model.error().describe();
  const ModelConfig& c = (*model)->config();
  const ModelWeights& w = (*model)->weights();
  for (const LayerWeights& layer : w.layers) {
    // ingot-synth draws each scale from [0.5, 1.5): two draws never agree.
    EXPECT_NE(layer.output_scale, layer.canvas_output_scale);
    EXPECT_GE(layer.canvas_output_scale, 0.5f);
  }
  ASSERT_TRUE(w.self_conditioning.has_value());
  EXPECT_EQ(w.self_conditioning->pre_norm.size(), size_t(c.n_embd));
  EXPECT_EQ(w.self_conditioning->gate.rows, c.n_ff);
  EXPECT_EQ(w.self_conditioning->down.rows, c.n_embd);
  EXPECT_TRUE(w.tied_output);
}

}  // namespace
}  // namespace ingot::model
