#include <arm_neon.h>

#include "kernels/ops_low_rank_shape.h"

namespace ingot::kernels::neon {
namespace {

struct NeonLanes {
  using Reg = float32x4_t;
  static constexpr int64_t kLanes = 4;
  static Reg load(const float* p) { return vld1q_f32(p); }
  static void store(float* p, Reg v) { vst1q_f32(p, v); }
  static Reg load_f16(const uint16_t* p) { return vcvt_f32_f16(vreinterpret_f16_u16(vld1_u16(p))); }
  static Reg broadcast(float x) { return vdupq_n_f32(x); }
  static Reg fma(Reg a, Reg b, Reg c) { return vfmaq_f32(c, a, b); }
};

}  // namespace

void add_low_rank(const float* m, int64_t rank, const uint16_t* b, int64_t begin, int64_t end,
                  float* y) {
  add_low_rank_lanes<NeonLanes>(m, rank, b, begin, end, y);
}

}  // namespace ingot::kernels::neon
