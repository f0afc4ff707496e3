#include "kernels/quantize_nonlinear.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "kernels/half.h"

namespace ingot::kernels {
namespace {

// The value of largest magnitude, with its sign.
float signed_extreme(const float* x, int n) {
  float extreme = 0.0f;
  for (int j = 0; j < n; ++j) {
    if (std::fabs(x[j]) > std::fabs(extreme)) extreme = x[j];
  }
  return extreme;
}

uint8_t nearest_index(const int8_t* table, float value) {
  int best = 0;
  for (int k = 1; k < 16; ++k) {
    if (std::fabs(table[k] - value) < std::fabs(table[best] - value)) best = k;
  }
  return uint8_t(best);
}

// 32 values as table indices at scale d, low nibbles first.
void pack_indices(const float* x, const int8_t* table, float d, uint8_t* qs) {
  const float id = d != 0.0f ? 1.0f / d : 0.0f;
  for (int j = 0; j < kQK / 2; ++j) {
    qs[j] = uint8_t(nearest_index(table, x[j] * id) | nearest_index(table, x[j + 16] * id) << 4);
  }
}

// IQ4_NL's scale for a block: the extreme lands on the table's -127.
float iq4_scale(const float* x) {
  return signed_extreme(x, kQK) / float(kIq4NlValues[0]);
}

}  // namespace

void quantize_iq4_nl(const float* x, BlockIQ4_NL* y, int64_t nb) {
  for (int64_t i = 0; i < nb; ++i, x += kQK) {
    y[i].d = f32_to_f16(iq4_scale(x));
    pack_indices(x, kIq4NlValues, f16_to_f32(y[i].d), y[i].qs);
  }
}

// Each sub-block's own scale, as a 6-bit multiple (less 32) of one d.
void quantize_iq4_xs(const float* x, BlockIQ4_XS* y, int64_t nb) {
  for (int64_t i = 0; i < nb; ++i, x += kQK_K) {
    float scales[kSubBlocksPerSuperBlock];
    float largest = 0.0f;
    for (int j = 0; j < kSubBlocksPerSuperBlock; ++j) {
      scales[j] = iq4_scale(x + j * kQK);
      if (std::fabs(scales[j]) > std::fabs(largest)) largest = scales[j];
    }
    const float d = largest / -32.0f;
    y[i].d = f32_to_f16(d);
    const float stored = f16_to_f32(y[i].d);
    const float id = stored != 0.0f ? 1.0f / stored : 0.0f;
    y[i].scales_h = 0;
    std::memset(y[i].scales_l, 0, sizeof y[i].scales_l);
    for (int j = 0; j < kSubBlocksPerSuperBlock; ++j) {
      const int level = std::clamp(int(std::lround(scales[j] * id)) + 32, 0, 63);
      y[i].scales_l[j / 2] |= uint8_t((level & 0xf) << (4 * (j % 2)));
      y[i].scales_h |= uint16_t((level >> 4) << (2 * j));
      pack_indices(x + j * kQK, kIq4NlValues, stored * float(level - 32), y[i].qs + j * kQK / 2);
    }
  }
}

// The exponent puts the extreme within the table's reach (12, doubled 6).
void quantize_mxfp4(const float* x, BlockMXFP4* y, int64_t nb) {
  for (int64_t i = 0; i < nb; ++i, x += kQK) {
    const float extreme = std::fabs(signed_extreme(x, kQK));
    const int e = extreme > 0.0f ? int(std::floor(std::log2(extreme))) - 2 + 127 : 0;
    y[i].e = uint8_t(std::clamp(e, 0, 254));
    pack_indices(x, kMxfp4Values, mxfp4_scale(y[i].e), y[i].qs);
  }
}

}  // namespace ingot::kernels
