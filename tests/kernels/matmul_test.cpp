#include "kernels/matmul.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <tuple>
#include <vector>

#include "kernel_test_data.h"
#include "kernels/activation_pack.h"
#include "kernels/block_formats.h"
#include "kernels/dequantize.h"
#include "kernels/half.h"
#include "kernels/interleave.h"
#include "kernels/kernel_table.h"

namespace ingot::kernels {
namespace {

using testing::quantize_matrix;
using testing::random_floats;

// Restores automatic path selection when a test ends.
class ScopedIsa {
 public:
  explicit ScopedIsa(Isa isa) { set_isa_override(isa); }
  ~ScopedIsa() { set_isa_override(std::nullopt); }
};

struct Shape {
  int64_t rows;
  int64_t blocks;  // columns, in blocks of the weight type
  int64_t tokens;
};

// Awkward shapes: one row, rows that are not multiples of any vector width
// or tile, one token, four tokens (the four-token micro-tile) with an odd
// row count, token counts either side of the 64-token tile.
const Shape kShapes[] = {{1, 1, 1},  {7, 3, 1},   {33, 2, 3},  {131, 3, 1},
                         {37, 2, 4}, {64, 1, 17}, {19, 2, 65}, {130, 1, 70}};

// Q4_1 and Q5_1 dot products use Q8_1's block sum s = F16(d * sum(q)),
// with d in F32, where the dequantized activations use F16(d): two F16
// roundings of s, each up to half an ulp, times the weight block's min.
double min_term_rounding(const WeightMatrix& w, const uint8_t* w_row, const uint8_t* x_row) {
  if (w.type != ElementType::kQ4_1 && w.type != ElementType::kQ5_1) return 0.0;
  const size_t w_block = element_type_info(w.type).bytes_per_block;
  double bound = 0;
  for (int64_t b = 0; b < w.cols / kQK; ++b) {
    BlockQ8_1 xb;
    std::memcpy(&xb, x_row + b * sizeof(BlockQ8_1), sizeof(xb));
    uint16_t m;  // the min follows the scale in both Q4_1 and Q5_1
    std::memcpy(&m, w_row + b * w_block + 2, 2);
    bound += std::fabs(f16_to_f32(m) * f16_to_f32(xb.s)) * 0x1p-10;
  }
  return bound;
}

// Checks y against sum_i W[r][i] * X[t][i] in double precision, with W and
// X the dequantized weights and packed activations: the kernels' integer
// dot products make that exact up to float rounding. And checks y against
// the scalar reference path's y_scalar: the same integer sums, so only the
// float summation order may differ.
void expect_matches_dequantized(const WeightMatrix& w, const PackedActivations& x,
                                const std::vector<float>& y, const std::vector<float>& y_scalar) {
  std::vector<float> w_row(w.cols), x_row(w.cols);
  for (int64_t t = 0; t < x.n_tokens(); ++t) {
    dequantize_row(x.packed_type(), x.row(t), x_row.data(), w.cols);
    for (int64_t r = 0; r < w.rows; ++r) {
      const auto* w_bytes = static_cast<const uint8_t*>(w.data) + r * w.row_stride;
      dequantize_row(w.type, w_bytes, w_row.data(), w.cols);
      const double tolerance = min_term_rounding(w, w_bytes, x.row(t));
      double sum = 0, magnitude = 0;
      for (int64_t i = 0; i < w.cols; ++i) {
        sum += static_cast<double>(w_row[i]) * x_row[i];
        magnitude += std::fabs(static_cast<double>(w_row[i]) * x_row[i]);
      }
      ASSERT_NEAR(y[t * w.rows + r], sum, tolerance + 1e-4 * magnitude + 1e-6)
          << element_type_name(w.type) << " row " << r << " token " << t;
      ASSERT_NEAR(y[t * w.rows + r], y_scalar[t * w.rows + r], 1e-5 * magnitude + 1e-6)
          << element_type_name(w.type) << " vs scalar, row " << r << " token " << t;
    }
  }
}

class MatmulTest : public ::testing::TestWithParam<std::tuple<ElementType, Isa>> {};

TEST_P(MatmulTest, MatchesScalarAndDequantizedFloatDot) {
  const auto [type, isa] = GetParam();
  if (!isa_available(isa)) GTEST_SKIP() << isa_name(isa) << " is not available on this CPU";
  ScopedIsa scoped(isa);
  // Float types have no blocks: 37 columns leave a tail after every vector width.
  const int64_t block =
      element_type_info(type).block_size == 1 ? 37 : element_type_info(type).block_size;
  for (int threads : {1, 2}) {
    ThreadPool pool(threads);
    for (const Shape& shape : kShapes) {
      const int64_t cols = shape.blocks * block;
      const auto weights = random_floats(shape.rows * cols, 1000 + shape.rows);
      const auto data = quantize_matrix(type, weights, shape.rows, cols);
      const WeightMatrix w{type, data.data(), shape.rows, cols, *row_bytes(type, cols)};
      const auto input = random_floats(shape.tokens * cols, 2000 + shape.tokens, 0.5f);
      PackedActivations x;
      x.pack(input.data(), shape.tokens, cols, type, pool);
      std::vector<float> y(shape.tokens * shape.rows, NAN);
      matmul(w, x, y.data(), shape.rows, pool);
      std::vector<float> y_scalar(y.size(), NAN);
      set_isa_override(Isa::kScalar);
      matmul(w, x, y_scalar.data(), shape.rows, pool);
      set_isa_override(isa);
      expect_matches_dequantized(w, x, y, y_scalar);

      std::vector<float> y_direct(y.size(), NAN);
      matmul(w, input.data(), shape.tokens, y_direct.data(), pool);
      ASSERT_EQ(y_direct, y) << "packing inside matmul changed the result";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllTypes, MatmulTest,
                         ::testing::Combine(::testing::ValuesIn(testing::matmul_types()),
                                            ::testing::ValuesIn(kAllIsas)),
                         [](const auto& info) {
                           return std::string(element_type_name(std::get<0>(info.param))) + "_" +
                                  std::string(isa_name(std::get<1>(info.param)));
                         });

class InterleavedMatmulTest : public ::testing::TestWithParam<ElementType> {};

// The floats of a shape's weights (rows x cols) and its input (tokens x cols).
using MakeFloats = std::function<std::vector<float>(int64_t rows, int64_t cols)>;

std::vector<float> random_weights(int64_t rows, int64_t cols) {
  return random_floats(rows * cols, 3000 + rows);
}

std::vector<float> random_input(int64_t tokens, int64_t cols) {
  return random_floats(tokens * cols, 4000 + tokens, 0.5f);
}

void expect_interleaved_matches_scalar(ElementType type, Isa isa,
                                       const MakeFloats& make_weights = random_weights,
                                       const MakeFloats& make_input = random_input) {
  const Shape shapes[] = {{1, 1, 1},   {7, 3, 1},   {33, 16, 2}, {131, 17, 1}, {9, 33, 5},
                          {19, 2, 65}, {66, 20, 7}, {29, 28, 3}, {50, 28, 4},  {5, 4, 4}};
  // Q4_K and Q6_K count super-blocks: 1 leaves a group half padded, 3 one
  // whole group and a half.
  const int64_t block_elements = element_type_info(type).block_size;
  for (int threads : {1, 2}) {
    ThreadPool pool(threads);
    for (const Shape& shape : shapes) {
      const int64_t cols = shape.blocks * block_elements;
      const auto weights = make_weights(shape.rows, cols);
      const auto data = quantize_matrix(type, weights, shape.rows, cols);
      WeightMatrix w{type, data.data(), shape.rows, cols, *row_bytes(type, cols)};
      const size_t stride = interleaved_row_bytes(type, cols);
      std::vector<uint8_t> interleaved(stride * shape.rows);
      for (int64_t r = 0; r < shape.rows; ++r) {
        interleave_weight_row(type, data.data() + r * w.row_stride, cols,
                              interleaved.data() + r * stride);
      }
      // The interleaved kernel must read only the interleaved copy: its view of
      // the original blocks is all zeros.
      const std::vector<uint8_t> zeros(data.size(), 0);
      WeightMatrix w_interleaved = w;
      w_interleaved.data = zeros.data();
      w_interleaved.interleaved = interleaved.data();
      w_interleaved.interleaved_stride = stride;
      const auto input = make_input(shape.tokens, cols);

      ScopedIsa interleaving(isa);
      PackedActivations x;
      x.pack(input.data(), shape.tokens, cols, type, pool);
      ASSERT_NE(x.interleaved_row(0), nullptr);
      std::vector<float> y(shape.tokens * shape.rows, NAN);
      matmul(w_interleaved, x, y.data(), shape.rows, pool);
      set_isa_override(Isa::kScalar);
      std::vector<float> y_scalar(y.size(), NAN);
      matmul(w, x, y_scalar.data(), shape.rows, pool);
      expect_matches_dequantized(w, x, y, y_scalar);
    }
  }
}

// Interleaved weights on each path that has kernels for them against the
// scalar path over the original blocks: one group, partial last groups, several groups; 2 to 4
// tokens (the small-batch micro-tiles) over row counts that leave edges.
TEST_P(InterleavedMatmulTest, MatchesScalarOverOriginalBlocks) {
  const ElementType type = GetParam();
  ASSERT_TRUE(can_interleave(type));
  for (Isa isa : kAllIsas) {
    const KernelTable* path = kernel_table(isa);
    if (path == nullptr || !path->interleaves(type)) continue;
    SCOPED_TRACE(isa_name(isa));
    expect_interleaved_matches_scalar(type, isa);
  }
}

// Weights whose quants are the largest unsigned bytes their types give
// (Q4_0's and Q4_K's 15, Q6_K's 63; in each block of 32 one element at -1
// and the rest at 31/32, or, for MXFP4's 6 plus 16, all at 1.5) against
// activations all at their largest magnitude (127), positive for even
// tokens and negative for odd ones: the largest integer sums a step can
// make, where 16-bit pair sums (AVX2 without VNNI) would saturate if too
// many steps added up before widening.
TEST_P(InterleavedMatmulTest, TheLargestQuantsDoNotSaturate) {
  const ElementType type = GetParam();
  const auto largest_weights = [type](int64_t rows, int64_t cols) {
    std::vector<float> w(rows * cols, type == ElementType::kMXFP4 ? 1.5f : 31.0f / 32);
    if (type != ElementType::kMXFP4) {
      for (size_t i = 0; i < w.size(); i += 32) w[i] = -1.0f;
    }
    return w;
  };
  const auto largest_input = [](int64_t tokens, int64_t cols) {
    std::vector<float> x(tokens * cols);
    for (int64_t i = 0; i < tokens * cols; ++i) x[i] = (i / cols) % 2 == 0 ? 0.5f : -0.5f;
    return x;
  };
  for (Isa isa : kAllIsas) {
    const KernelTable* path = kernel_table(isa);
    if (path == nullptr || !path->interleaves(type)) continue;
    SCOPED_TRACE(isa_name(isa));
    expect_interleaved_matches_scalar(type, isa, largest_weights, largest_input);
  }
}

INSTANTIATE_TEST_SUITE_P(EveryLayout, InterleavedMatmulTest,
                         ::testing::Values(ElementType::kQ4_0, ElementType::kIQ4_NL,
                                           ElementType::kMXFP4, ElementType::kQ8_0,
                                           ElementType::kQ4_K, ElementType::kIQ4_XS,
                                           ElementType::kQ6_K),
                         [](const auto& info) {
                           return std::string(element_type_name(info.param));
                         });

TEST(Matmul, WritesOnlyItsOutputColumnsWithAStride) {
  ThreadPool pool(2);
  const int64_t rows = 5, cols = 64, tokens = 3, stride = 9;
  const auto weights = random_floats(rows * cols, 1);
  const auto data = quantize_matrix(ElementType::kQ8_0, weights, rows, cols);
  const WeightMatrix w{ElementType::kQ8_0, data.data(), rows, cols,
                       *row_bytes(ElementType::kQ8_0, cols)};
  const auto input = random_floats(tokens * cols, 2);
  PackedActivations x;
  x.pack(input.data(), tokens, cols, w.type, pool);
  std::vector<float> y(tokens * stride, -7.0f);
  matmul(w, x, y.data(), stride, pool);
  for (int64_t t = 0; t < tokens; ++t) {
    for (int64_t c = rows; c < stride; ++c) EXPECT_EQ(y[t * stride + c], -7.0f);
    for (int64_t r = 0; r < rows; ++r) EXPECT_NE(y[t * stride + r], -7.0f);
  }
}

// Products of different types and shapes in one matmul_all call, more of
// them than one region takes, one of them empty: each gives what it gives
// alone.
TEST(Matmul, AllProductsTogetherMatchEachAlone) {
  ThreadPool pool(2);
  struct Spec {
    ElementType type;
    int64_t rows, cols;
  };
  const Spec specs[] = {{ElementType::kQ4_0, 131, 96}, {ElementType::kQ8_0, 16, 64},
                        {ElementType::kQ4_K, 37, 256}, {ElementType::kF16, 0, 64},
                        {ElementType::kQ6_K, 20, 256}, {ElementType::kQ4_0, 9, 32}};
  for (int64_t tokens : {1, 4, 70}) {
    std::vector<std::vector<uint8_t>> data;
    std::vector<WeightMatrix> weights;
    std::vector<PackedActivations> packed(std::size(specs));
    std::vector<std::vector<float>> together, alone;
    for (size_t i = 0; i < std::size(specs); ++i) {
      const Spec& spec = specs[i];
      data.push_back(quantize_matrix(spec.type, random_floats(spec.rows * spec.cols, 50 + i),
                                     spec.rows, spec.cols));
      weights.push_back(WeightMatrix{spec.type, data.back().data(), spec.rows, spec.cols,
                                     *row_bytes(spec.type, spec.cols)});
      const auto input = random_floats(tokens * spec.cols, 60 + i);
      packed[i].pack(input.data(), tokens, spec.cols, spec.type, pool);
      together.emplace_back(tokens * spec.rows, NAN);
      alone.emplace_back(tokens * spec.rows, NAN);
    }
    std::vector<MatmulProduct> products;
    for (size_t i = 0; i < std::size(specs); ++i) {
      products.push_back({&weights[i], &packed[i], together[i].data(), specs[i].rows});
      matmul(weights[i], packed[i], alone[i].data(), specs[i].rows, pool);
    }
    matmul_all(products, pool);
    for (size_t i = 0; i < std::size(specs); ++i) {
      for (size_t j = 0; j < together[i].size(); ++j) {
        ASSERT_EQ(together[i][j], alone[i][j]) << "product " << i << " tokens " << tokens;
      }
    }
  }
}

}  // namespace
}  // namespace ingot::kernels
