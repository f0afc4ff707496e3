// --logit-bias as llama-server spells it.

#include "sampling/logit_bias_spec.h"

#include <gtest/gtest.h>

#include <limits>

namespace ingot::sampling {
namespace {

TEST(LogitBiasSpec, TokenSignAndBias) {
  EXPECT_EQ(parse_logit_bias_spec("15043+1"), (std::pair<int32_t, float>{15043, 1.0f}));
  EXPECT_EQ(parse_logit_bias_spec("15043-2.5"), (std::pair<int32_t, float>{15043, -2.5f}));
  EXPECT_EQ(parse_logit_bias_spec("2-inf"),
            (std::pair<int32_t, float>{2, -std::numeric_limits<float>::infinity()}));
  EXPECT_EQ(parse_logit_bias_spec("2+inf"),
            (std::pair<int32_t, float>{2, std::numeric_limits<float>::infinity()}));
}

TEST(LogitBiasSpec, AnythingElseIsRefused) {
  for (const char* spec : {"", "15043", "+1", "15043+", "x+1", "15043+one", "15043+1x", "-1+1",
                           "15043+nan", "15043+-1", "15043*1"}) {
    EXPECT_EQ(parse_logit_bias_spec(spec), std::nullopt) << spec;
  }
}

}  // namespace
}  // namespace ingot::sampling
