// Every tensor of each small-llama-<type>.gguf (quantized by llama.cpp from
// the same weights as small-llama-f16.gguf) dequantizes to within its
// type's error of the F16 tensor, and our reference quantizers, run on the
// F16 weights, write llama.cpp's bytes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "gguf/reader.h"
#include "kernels/dequantize.h"
#include "kernels/quantize.h"
#include "support/shared_data.h"

namespace ingot::kernels {
namespace {

using gguf::GgufFile;
using gguf::TensorInfo;

// Relative RMS error of a tensor of each type against the F16 weights
// (Gaussian-like random weights; measured errors are below ~70% of these).
double relative_rms_bound(ElementType type) {
  switch (type) {
    case ElementType::kF32:
    case ElementType::kF16:
      return 1e-3;
    case ElementType::kQ8_0:
      return 1e-2;
    case ElementType::kQ6_K:
      return 2.5e-2;
    case ElementType::kQ5_0:
    case ElementType::kQ5_1:
    case ElementType::kQ5_K:
      return 5e-2;
    case ElementType::kQ4_0:
    case ElementType::kQ4_1:
    case ElementType::kQ4_K:
      return 0.1;
    case ElementType::kQ3_K:
      return 0.2;
    case ElementType::kQ2_K:
      return 0.4;
    default:
      return 0.0;
  }
}

std::vector<float> dequantize_tensor(const TensorInfo& t) {
  std::vector<float> out(static_cast<size_t>(t.element_count()));
  const int64_t cols = t.dims[0];
  const size_t row_size = *row_bytes(t.type, cols);
  for (int64_t r = 0; r < t.element_count() / cols; ++r) {
    dequantize_row(t.type, t.data + r * row_size, out.data() + r * cols, cols);
  }
  return out;
}

GgufFile open_model(const std::string& name) {
  auto file = GgufFile::open(ingot::testing::shared_path("models/" + name).string());
  EXPECT_TRUE(file.ok()) << name << ": " << (file.ok() ? "" : file.error().describe());
  return std::move(file).value();
}

class SharedModelTensors : public ::testing::TestWithParam<std::string> {};

TEST_P(SharedModelTensors, DequantizeCloseToF16) {
  INGOT_REQUIRE_SHARED();
  const GgufFile f16 = open_model("small-llama-f16.gguf");
  const GgufFile quantized = open_model("small-llama-" + GetParam() + ".gguf");
  int checked = 0;
  for (const TensorInfo& t : quantized.tensors()) {
    const TensorInfo* ref = f16.find_tensor(t.name);
    ASSERT_NE(ref, nullptr) << t.name;
    ASSERT_EQ(ref->dims, t.dims) << t.name;
    ASSERT_GT(relative_rms_bound(t.type), 0.0)
        << t.name << " has type " << element_type_name(t.type);
    const std::vector<float> got = dequantize_tensor(t);
    const std::vector<float> want = dequantize_tensor(*ref);
    double err = 0, norm = 0;
    for (size_t i = 0; i < got.size(); ++i) {
      ASSERT_TRUE(std::isfinite(got[i])) << t.name << " element " << i;
      err += (static_cast<double>(got[i]) - want[i]) * (static_cast<double>(got[i]) - want[i]);
      norm += static_cast<double>(want[i]) * want[i];
    }
    EXPECT_LE(std::sqrt(err / norm), relative_rms_bound(t.type))
        << t.name << " (" << element_type_name(t.type) << ")";
    ++checked;
  }
  EXPECT_GT(checked, 0);
}

// llama-quantize without an imatrix uses the reference quantizers, so
// quantizing the F16 weights again must give the file's blocks.
TEST_P(SharedModelTensors, ReferenceQuantizerWritesLlamaCppBytes) {
  INGOT_REQUIRE_SHARED();
  const GgufFile f16 = open_model("small-llama-f16.gguf");
  const GgufFile quantized = open_model("small-llama-" + GetParam() + ".gguf");
  std::map<std::string, int> blocks_differing;
  int64_t total_blocks = 0, differing = 0;
  for (const TensorInfo& t : quantized.tensors()) {
    if (t.type == ElementType::kF32 || t.type == ElementType::kF16) continue;
    const TensorInfo* ref = f16.find_tensor(t.name);
    ASSERT_NE(ref, nullptr) << t.name;
    const std::vector<float> source = dequantize_tensor(*ref);
    std::vector<uint8_t> requantized(t.n_bytes);
    const int64_t cols = t.dims[0];
    const size_t row_size = *row_bytes(t.type, cols);
    for (int64_t r = 0; r < t.element_count() / cols; ++r) {
      quantize_row(t.type, source.data() + r * cols, requantized.data() + r * row_size, cols);
    }
    const size_t block_bytes = element_type_info(t.type).bytes_per_block;
    for (size_t off = 0; off < t.n_bytes; off += block_bytes) {
      ++total_blocks;
      if (std::memcmp(requantized.data() + off, t.data + off, block_bytes) != 0) {
        ++differing;
        ++blocks_differing[std::string(t.name) + " " + std::string(element_type_name(t.type))];
      }
    }
  }
  for (const auto& [name, count] : blocks_differing)
    ADD_FAILURE() << name << ": " << count << " blocks differ";
  EXPECT_EQ(differing, 0) << "of " << total_blocks;
}

INSTANTIATE_TEST_SUITE_P(AllQuantizations, SharedModelTensors,
                         ::testing::Values("q8_0", "q4_0", "q4_1", "q5_0", "q5_1", "q2_k", "q3_k_m",
                                           "q4_k_m", "q5_k_m", "q6_k"));

}  // namespace
}  // namespace ingot::kernels
