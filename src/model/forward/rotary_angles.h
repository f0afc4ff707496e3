#pragma once
// A RoPE and the angles of a batch's positions under it, computed once per
// step and shared by every layer and head that rotates by it.

#include <cstdint>
#include <vector>

#include "kernels/ops_rope.h"
#include "model/batch.h"

namespace ingot::model {

class RotaryAngles {
 public:
  explicit RotaryAngles(const kernels::RopeParams& params) : rope_(params) {}

  void reset(const kernels::RopeParams& params) { rope_ = kernels::Rope(params); }
  void compute(const Batch& batch);
  // Rotates the n_heads heads of row t (head_dim values each, adjacent).
  void rotate(float* row, int64_t t, int64_t n_heads, int64_t head_dim,
              kernels::RopeLayout layout) const;

 private:
  kernels::Rope rope_;
  std::vector<float> cos_;  // [T][n_rot / 2]
  std::vector<float> sin_;
};

}  // namespace ingot::model
