// The expansion of a low-rank product: the scalar path against its
// definition in double, and each SIMD path against the scalar one, over
// awkward output ranges and ranks.

#include "kernels/ops_low_rank.h"

#include <gtest/gtest.h>

#include <vector>

#include "kernels/half.h"
#include "kernels/ops_test_support.h"

namespace ingot::kernels {
namespace {

using testing::kAwkwardLengths;
using testing::random_floats;

using AddLowRank = void (*)(const float*, int64_t, const uint16_t*, int64_t, int64_t, float*);

struct Case {
  int64_t rank;
  int64_t n_out;
  std::vector<float> m;
  std::vector<float> b;          // [rank][n_out], the values in F16 precision
  std::vector<uint16_t> blocks;  // b in the kernel's layout
  std::vector<float> y;
};

Case make_case(int64_t rank, int64_t n_out) {
  Case c{rank, n_out, random_floats(rank, 1.0f, uint32_t(rank)), {}, {}, {}};
  c.b = random_floats(rank * n_out, 0.1f, uint32_t(n_out));
  c.blocks.assign(size_t(low_rank_size(n_out, rank)), 0);
  for (int64_t k = 0; k < rank; ++k) {
    for (int64_t o = 0; o < n_out; ++o) {
      const uint16_t half = f32_to_f16(c.b[k * n_out + o]);
      c.b[k * n_out + o] = f16_to_f32(half);
      c.blocks[size_t(low_rank_offset(o, k, rank))] = half;
    }
  }
  c.y = random_floats(n_out, 2.0f, uint32_t(rank * 31 + n_out));
  return c;
}

// Outputs [begin, end) by `add`, the others untouched.
std::vector<float> run(const Case& c, AddLowRank add, int64_t begin, int64_t end) {
  std::vector<float> y = c.y;
  add(c.m.data(), c.rank, c.blocks.data(), begin, end, y.data());
  return y;
}

TEST(LowRank, ScalarPathIsTheDefinition) {
  for (int64_t rank : {1, 8, 16}) {
    for (int64_t n : kAwkwardLengths) {
      const Case c = make_case(rank, n);
      const int64_t begin = n / 2 / kLowRankBlock * kLowRankBlock;
      const std::vector<float> y = run(c, scalar::add_low_rank, begin, n);
      for (int64_t o = 0; o < n; ++o) {
        double expected = c.y[o];
        for (int64_t k = 0; k < rank && o >= begin; ++k) {
          expected += double(c.m[k]) * double(c.b[k * n + o]);
        }
        EXPECT_NEAR(y[o], expected, 1e-5 * (1.0 + std::abs(expected)))
            << rank << " " << n << " " << o;
      }
    }
  }
}

void expect_matches_scalar(AddLowRank add) {
  for (int64_t rank : {1, 8, 16, 17, 64}) {
    for (int64_t n : kAwkwardLengths) {
      const Case c = make_case(rank, n);
      for (int64_t begin : {int64_t{0}, n / 2 / kLowRankBlock * kLowRankBlock}) {
        testing::expect_close(run(c, add, begin, n), run(c, scalar::add_low_rank, begin, n), 1e-5f);
      }
    }
  }
}

TEST(LowRank, EveryPathMatchesScalar) {
  for (const KernelTable* path : testing::vector_paths()) {
    SCOPED_TRACE(isa_name(path->isa));
    expect_matches_scalar(path->add_low_rank);
  }
}

}  // namespace
}  // namespace ingot::kernels
