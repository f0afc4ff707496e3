#include "model/forward/rotary_angles.h"

#include "model/forward/residual.h"

namespace ingot::model {

void RotaryAngles::compute(const Batch& batch) {
  const int64_t n_pairs = rope_.n_rot() / 2;
  grow(cos_, batch.size() * n_pairs);
  grow(sin_, batch.size() * n_pairs);
  const std::vector<BatchEntry>& entries = batch.entries();
  for (size_t t = 0; t < entries.size(); ++t) {
    rope_.angles(entries[t].position, cos_.data() + t * n_pairs, sin_.data() + t * n_pairs);
  }
}

void RotaryAngles::rotate(float* row, int64_t t, int64_t n_heads, int64_t head_dim,
                          kernels::RopeLayout layout) const {
  const int64_t n_pairs = rope_.n_rot() / 2;
  rope_.rotate(row, n_heads, head_dim, layout, cos_.data() + t * n_pairs,
               sin_.data() + t * n_pairs);
}

}  // namespace ingot::model
