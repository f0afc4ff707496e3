// Widening quantized KV tiles to F16 (kv_tiles_shape.h) on NEON, eight
// lanes at a time.
#include <arm_neon.h>

#include "kernels/kv_tiles.h"
#include "kernels/shapes/kv_tiles_shape.h"

namespace ingot::kernels::neon {
namespace {

struct KvLanes {
  static constexpr int64_t kLanes = 8;
  using Q = int16x8_t;
  using S = float16x8_t;

  static Q i8s(const int8_t* p) { return vmovl_s8(vld1_s8(p)); }
  static Q low_nibbles_less_8(const uint8_t* p) {
    return less_8(vand_u8(vld1_u8(p), vdup_n_u8(0x0f)));
  }
  static Q high_nibbles_less_8(const uint8_t* p) { return less_8(vshr_n_u8(vld1_u8(p), 4)); }
  static S scales(const uint16_t* p) { return vreinterpretq_f16_u16(vld1q_u16(p)); }
  static S scale(uint16_t d) { return vreinterpretq_f16_u16(vdupq_n_u16(d)); }
  static void store_scaled(uint16_t* to, Q quants, S scales) {
    const float32x4_t lo = vmulq_f32(vcvt_f32_f16(vget_low_f16(scales)),
                                     vcvtq_f32_s32(vmovl_s16(vget_low_s16(quants))));
    const float32x4_t hi =
        vmulq_f32(vcvt_high_f32_f16(scales), vcvtq_f32_s32(vmovl_high_s16(quants)));
    vst1q_u16(to, vreinterpretq_u16_f16(vcvt_high_f16_f32(vcvt_f16_f32(lo), hi)));
  }

 private:
  static Q less_8(uint8x8_t nibbles) {
    return vsubq_s16(vreinterpretq_s16_u16(vmovl_u8(nibbles)), vdupq_n_s16(8));
  }
};

}  // namespace

WidenKeysFn widen_keys_fn(ElementType type) {
  return widen_keys_lanes<KvLanes>(type);
}

WidenValuesFn widen_values_fn(ElementType type) {
  return widen_values_lanes<KvLanes>(type);
}

}  // namespace ingot::kernels::neon
