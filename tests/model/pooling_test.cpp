// Pooling a sequence's hidden states chunk by chunk: the mean of every
// row, the last position's row, the first's.

#include "model/pooling.h"

#include <gtest/gtest.h>

#include <vector>

namespace ingot::model {
namespace {

// Three positions of two features, added as a chunk of two and one of one.
std::vector<float> pooled(Pooling pooling) {
  const std::vector<float> rows = {1, 2, 3, 4, 5, 9};
  PooledEmbedding embedding(pooling, 3);
  embedding.add(rows.data(), 2, 2, 0);
  embedding.add(rows.data() + 4, 1, 2, 2);
  return embedding.take();
}

TEST(Pooling, MeanLastAndClsOverChunks) {
  EXPECT_EQ(pooled(Pooling::kMean), (std::vector<float>{3, 5}));
  EXPECT_EQ(pooled(Pooling::kLast), (std::vector<float>{5, 9}));
  EXPECT_EQ(pooled(Pooling::kCls), (std::vector<float>{1, 2}));
}

}  // namespace
}  // namespace ingot::model
