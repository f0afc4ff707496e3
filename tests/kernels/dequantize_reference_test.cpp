// The 4-bit table types dequantize to exactly llama.cpp's values: seeded
// random blocks and what llama.cpp's own dequantization made of them
// (tests/fixtures/dequantize, see its README).

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "kernels/dequantize.h"
#include "kernels/element_type.h"
#include "support/shared_data.h"

namespace ingot::kernels {
namespace {

class DequantizeReference : public ::testing::TestWithParam<const char*> {};

TEST_P(DequantizeReference, EqualsLlamaCppsValues) {
  const std::string name = GetParam();
  std::ifstream in(::ingot::testing::source_dir() / "tests/fixtures/dequantize" / (name + ".json"));
  ASSERT_TRUE(in) << name;
  const nlohmann::json fixture = nlohmann::json::parse(in);
  const auto type = element_type_from_id(fixture["type"].get<uint32_t>());
  ASSERT_TRUE(type.has_value());
  const std::string hex = fixture["bytes_hex"];
  std::vector<uint8_t> bytes;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    bytes.push_back(uint8_t(std::stoi(hex.substr(i, 2), nullptr, 16)));
  }
  const std::vector<float> expected = fixture["values"];
  std::vector<float> values(expected.size());
  dequantize_row(*type, bytes.data(), values.data(), int64_t(values.size()));
  for (size_t i = 0; i < values.size(); ++i) {
    ASSERT_EQ(values[i], expected[i]) << name << " element " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(TableTypes, DequantizeReference,
                         ::testing::Values("iq4_nl", "iq4_xs", "mxfp4"));

}  // namespace
}  // namespace ingot::kernels
