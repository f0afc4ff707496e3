#include "kernels/quantize_k.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "kernels/half.h"
#include "kernels/quantize_math.h"

namespace ingot::kernels {
namespace {

// Below this a group counts as all zeros (llama.cpp's GROUP_MAX_EPS).
constexpr float kGroupMaxEps = 1e-15f;

// An affine fit x ~ scale * q + min of n values to q in [0, nmax], with
// min <= 0: start from the range, then try nstep+1 slightly stretched
// scales, each refined by weighted least squares, and keep the one with
// the smallest weighted error (squared, or absolute when use_mad).
// Returns the scale and stores -min in *neg_min. (make_qkx2_quants)
struct AffineFitParams {
  float rmin;
  float rdelta;
  int nstep;
  bool use_mad;
};

float fit_affine(int n, int nmax, const float* x, const float* w, uint8_t* q, float* neg_min,
                 AffineFitParams p) {
  float min = x[0], max = x[0];
  float sum_w = w[0], sum_x = sum_w * x[0];
  for (int i = 1; i < n; ++i) {
    min = std::min(min, x[i]);
    max = std::max(max, x[i]);
    sum_w += w[i];
    sum_x += w[i] * x[i];
  }
  if (min > 0) min = 0;
  if (max == min) {
    std::memset(q, 0, n);
    *neg_min = -min;
    return 0.0f;
  }
  auto error_of = [&](float diff) { return p.use_mad ? std::fabs(diff) : diff * diff; };
  float iscale = nmax / (max - min);
  float scale = 1 / iscale;
  float best_error = 0;
  for (int i = 0; i < n; ++i) {
    q[i] = static_cast<uint8_t>(std::clamp(nearest_int(iscale * (x[i] - min)), 0, nmax));
    best_error += w[i] * error_of(scale * q[i] + min - x[i]);
  }
  uint8_t trial[32];
  for (int step = 0; step <= p.nstep; ++step) {
    iscale = (p.rmin + p.rdelta * step + nmax) / (max - min);
    float sum_l = 0, sum_l2 = 0, sum_xl = 0;
    for (int i = 0; i < n; ++i) {
      const int l = std::clamp(nearest_int(iscale * (x[i] - min)), 0, nmax);
      trial[i] = static_cast<uint8_t>(l);
      sum_l += w[i] * l;
      sum_l2 += w[i] * l * l;
      sum_xl += w[i] * l * x[i];
    }
    const float det = sum_w * sum_l2 - sum_l * sum_l;
    if (det <= 0) continue;
    float this_scale = (sum_w * sum_xl - sum_x * sum_l) / det;
    float this_min = (sum_l2 * sum_x - sum_l * sum_xl) / det;
    if (this_min > 0) {
      this_min = 0;
      this_scale = sum_xl / sum_l2;
    }
    float error = 0;
    for (int i = 0; i < n; ++i) error += w[i] * error_of(this_scale * trial[i] + this_min - x[i]);
    if (error < best_error) {
      std::memcpy(q, trial, n);
      best_error = error;
      scale = this_scale;
      min = this_min;
    }
  }
  *neg_min = -min;
  return scale;
}

// A symmetric fit x ~ scale * (q - nmax), q in [0, 2*nmax), weighting by
// x^2: start from the extreme mapping to -nmax, then try 18 nearby scales
// and keep the best least-squares one. (make_qx_quants, rmse_type 1)
float fit_symmetric(int n, int nmax, const float* x, int8_t* q) {
  float max = 0, amax = 0;
  for (int i = 0; i < n; ++i) {
    if (std::fabs(x[i]) > amax) {
      amax = std::fabs(x[i]);
      max = x[i];
    }
  }
  if (amax < kGroupMaxEps) {
    std::memset(q, 0, n);
    return 0.0f;
  }
  auto level = [&](float iscale, int i) {
    return std::clamp(nearest_int(iscale * x[i]), -nmax, nmax - 1);
  };
  float iscale = -nmax / max;
  float sum_lx = 0, sum_l2 = 0;
  for (int i = 0; i < n; ++i) {
    const int l = level(iscale, i);
    q[i] = static_cast<int8_t>(l + nmax);
    const float w = x[i] * x[i];
    sum_lx += w * x[i] * l;
    sum_l2 += w * l * l;
  }
  float scale = sum_l2 != 0 ? sum_lx / sum_l2 : 0.0f;
  float best = scale * sum_lx;
  for (int step = -9; step <= 9; ++step) {
    if (step == 0) continue;
    iscale = -(nmax + 0.1f * step) / max;
    sum_lx = sum_l2 = 0;
    for (int i = 0; i < n; ++i) {
      const int l = level(iscale, i);
      const float w = x[i] * x[i];
      sum_lx += w * x[i] * l;
      sum_l2 += w * l * l;
    }
    if (sum_l2 > 0 && sum_lx * sum_lx > best * sum_l2) {
      for (int i = 0; i < n; ++i) q[i] = static_cast<int8_t>(level(iscale, i) + nmax);
      scale = sum_lx / sum_l2;
      best = scale * sum_lx;
    }
  }
  return scale;
}

// Q3_K's sub-block fit: symmetric, q in [-nmax, nmax), then up to five
// passes moving single values while the x^2-weighted fit improves.
// Stores q + nmax. (make_q3_quants with do_rmse)
float fit_q3(int n, int nmax, const float* x, int8_t* q) {
  float max = 0, amax = 0;
  for (int i = 0; i < n; ++i) {
    if (std::fabs(x[i]) > amax) {
      amax = std::fabs(x[i]);
      max = x[i];
    }
  }
  if (amax < kGroupMaxEps) {
    std::memset(q, 0, n);
    return 0.0f;
  }
  const float iscale = -nmax / max;
  float sum_lx = 0, sum_l2 = 0;
  for (int i = 0; i < n; ++i) {
    const int l = std::clamp(nearest_int(iscale * x[i]), -nmax, nmax - 1);
    q[i] = static_cast<int8_t>(l);
    const float w = x[i] * x[i];
    sum_lx += w * x[i] * l;
    sum_l2 += w * l * l;
  }
  for (int pass = 0; pass < 5; ++pass) {
    int n_changed = 0;
    for (int i = 0; i < n; ++i) {
      const float w = x[i] * x[i];
      float slx = sum_lx - w * x[i] * q[i];
      if (slx <= 0) continue;
      float sl2 = sum_l2 - w * q[i] * q[i];
      const int new_l = std::clamp(nearest_int(x[i] * sl2 / slx), -nmax, nmax - 1);
      if (new_l == q[i]) continue;
      slx += w * x[i] * new_l;
      sl2 += w * new_l * new_l;
      if (sl2 > 0 && slx * slx * sum_l2 > sum_lx * sum_lx * sl2) {
        q[i] = static_cast<int8_t>(new_l);
        sum_lx = slx;
        sum_l2 = sl2;
        ++n_changed;
      }
    }
    if (n_changed == 0) break;
  }
  for (int i = 0; i < n; ++i) q[i] = static_cast<int8_t>(q[i] + nmax);
  return sum_l2 > 0.0f ? sum_lx / sum_l2 : 0.0f;
}

// Stores 256 2-bit values the way Q2_K/Q3_K read them: byte l of each
// 32-byte group holds elements l, l+32, l+64, l+96 of a 128-element half.
void pack_2bit(const uint8_t* q, uint8_t* qs) {
  for (int half = 0; half < 2; ++half) {
    const uint8_t* h = q + 128 * half;
    for (int l = 0; l < 32; ++l) {
      qs[32 * half + l] =
          static_cast<uint8_t>(h[l] | (h[l + 32] << 2) | (h[l + 64] << 4) | (h[l + 96] << 6));
    }
  }
}

// The 6-bit scales and mins of Q4_K/Q5_K, inverse of k4_scale_min.
void pack_k4_scales(const uint8_t ls[8], const uint8_t lm[8], uint8_t* scales) {
  for (int j = 0; j < 4; ++j) {
    scales[j] = ls[j];
    scales[j + 4] = lm[j];
  }
  for (int j = 4; j < 8; ++j) {
    scales[j + 4] = static_cast<uint8_t>((ls[j] & 0xf) | ((lm[j] & 0xf) << 4));
    scales[j - 4] |= static_cast<uint8_t>((ls[j] >> 4) << 6);
    scales[j] |= static_cast<uint8_t>((lm[j] >> 4) << 6);
  }
}

// Fits the eight 32-element sub-blocks of a Q4_K/Q5_K super-block, then
// quantizes their scales and mins to 6 bits under F16 d and dmin, and
// requantizes every value against the final scales into q (0..nmax).
void quantize_k4_superblock(const float* x, int nmax, AffineFitParams fit, uint16_t* d_out,
                            uint16_t* dmin_out, uint8_t* scales_out, uint8_t* q) {
  float scales[8], mins[8], weights[32];
  float max_scale = 0, max_min = 0;
  for (int j = 0; j < 8; ++j) {
    const float* xs = x + 32 * j;
    float sum_x2 = 0;
    for (int l = 0; l < 32; ++l) sum_x2 += xs[l] * xs[l];
    const float av_x = std::sqrt(sum_x2 / 32);
    for (int l = 0; l < 32; ++l) weights[l] = av_x + std::fabs(xs[l]);
    scales[j] = fit_affine(32, nmax, xs, weights, q + 32 * j, &mins[j], fit);
    max_scale = std::max(max_scale, scales[j]);
    max_min = std::max(max_min, mins[j]);
  }
  const float inv_scale = max_scale > 0 ? 63.f / max_scale : 0.f;
  const float inv_min = max_min > 0 ? 63.f / max_min : 0.f;
  uint8_t ls[8], lm[8];
  for (int j = 0; j < 8; ++j) {
    // The uint8_t truncation before the clamp follows the reference.
    ls[j] = std::min<uint8_t>(63, static_cast<uint8_t>(nearest_int(inv_scale * scales[j])));
    lm[j] = std::min<uint8_t>(63, static_cast<uint8_t>(nearest_int(inv_min * mins[j])));
  }
  std::memset(scales_out, 0, 12);
  pack_k4_scales(ls, lm, scales_out);
  *d_out = f32_to_f16(max_scale / 63.f);
  *dmin_out = f32_to_f16(max_min / 63.f);
  for (int j = 0; j < 8; ++j) {
    const ScaleMin sm = k4_scale_min(scales_out, j);
    const float d = f16_to_f32(*d_out) * sm.scale;
    if (d == 0.0f) continue;
    const float dm = f16_to_f32(*dmin_out) * sm.min;
    for (int l = 0; l < 32; ++l) {
      q[32 * j + l] =
          static_cast<uint8_t>(std::clamp(nearest_int((x[32 * j + l] + dm) / d), 0, nmax));
    }
  }
}

}  // namespace

void quantize_q2_k(const float* x, BlockQ2_K* y, int64_t n_blocks) {
  for (int64_t i = 0; i < n_blocks; ++i, x += kQK_K) {
    uint8_t q[kQK_K];
    float scales[16], mins[16], weights[16];
    float max_scale = 0, max_min = 0;
    for (int j = 0; j < 16; ++j) {
      for (int l = 0; l < 16; ++l) weights[l] = std::fabs(x[16 * j + l]);
      scales[j] =
          fit_affine(16, 3, x + 16 * j, weights, q + 16 * j, &mins[j], {-0.5f, 0.1f, 15, true});
      max_scale = std::max(max_scale, scales[j]);
      max_min = std::max(max_min, mins[j]);
    }
    for (int j = 0; j < 16; ++j) {
      const int ls = max_scale > 0 ? nearest_int(15.f / max_scale * scales[j]) : 0;
      const int lm = max_min > 0 ? nearest_int(15.f / max_min * mins[j]) : 0;
      y[i].scales[j] = static_cast<uint8_t>(ls | (lm << 4));
    }
    y[i].d = f32_to_f16(max_scale > 0 ? max_scale / 15.f : 0.f);
    y[i].dmin = f32_to_f16(max_min > 0 ? max_min / 15.f : 0.f);
    for (int j = 0; j < 16; ++j) {
      const float d = f16_to_f32(y[i].d) * (y[i].scales[j] & 0xf);
      if (d == 0.0f) continue;
      const float dm = f16_to_f32(y[i].dmin) * (y[i].scales[j] >> 4);
      for (int l = 0; l < 16; ++l) {
        q[16 * j + l] =
            static_cast<uint8_t>(std::clamp(nearest_int((x[16 * j + l] + dm) / d), 0, 3));
      }
    }
    pack_2bit(q, y[i].qs);
  }
}

void quantize_q3_k(const float* x, BlockQ3_K* y, int64_t n_blocks) {
  for (int64_t i = 0; i < n_blocks; ++i, x += kQK_K) {
    int8_t l8[kQK_K];
    float scales[16];
    float max_scale = 0, amax = 0;
    for (int j = 0; j < 16; ++j) {
      scales[j] = fit_q3(16, 4, x + 16 * j, l8 + 16 * j);
      if (std::fabs(scales[j]) > amax) {
        amax = std::fabs(scales[j]);
        max_scale = scales[j];
      }
    }
    std::memset(y[i].scales, 0, 12);
    if (max_scale != 0.0f) {
      const float iscale = -32.f / max_scale;
      for (int j = 0; j < 16; ++j) {
        // The int8_t truncation before the clamp follows the reference.
        int l = static_cast<int8_t>(nearest_int(iscale * scales[j]));
        l = std::clamp(l, -32, 31) + 32;
        if (j < 8) {
          y[i].scales[j] = static_cast<uint8_t>(l & 0xf);
        } else {
          y[i].scales[j - 8] |= static_cast<uint8_t>((l & 0xf) << 4);
        }
        y[i].scales[j % 4 + 8] |= static_cast<uint8_t>((l >> 4) << (2 * (j / 4)));
      }
      y[i].d = f32_to_f16(1 / iscale);
    } else {
      y[i].d = f32_to_f16(0.f);
    }
    int8_t final_scales[16];
    q3_k_scales(y[i].scales, final_scales);
    uint8_t q[kQK_K];
    for (int e = 0; e < kQK_K; ++e) q[e] = static_cast<uint8_t>(l8[e]);
    for (int j = 0; j < 16; ++j) {
      const float d = f16_to_f32(y[i].d) * final_scales[j];
      if (d == 0.0f) continue;
      for (int l = 0; l < 16; ++l) {
        q[16 * j + l] = static_cast<uint8_t>(std::clamp(nearest_int(x[16 * j + l] / d), -4, 3) + 4);
      }
    }
    // The high bit of element e goes to bit e/32 of hmask[e%32].
    std::memset(y[i].hmask, 0, sizeof(y[i].hmask));
    for (int e = 0; e < kQK_K; ++e) {
      if (q[e] > 3) {
        y[i].hmask[e % 32] |= static_cast<uint8_t>(1 << (e / 32));
        q[e] -= 4;
      }
    }
    pack_2bit(q, y[i].qs);
  }
}

void quantize_q4_k(const float* x, BlockQ4_K* y, int64_t n_blocks) {
  for (int64_t i = 0; i < n_blocks; ++i, x += kQK_K) {
    uint8_t q[kQK_K];
    quantize_k4_superblock(x, 15, {-1.f, 0.1f, 20, false}, &y[i].d, &y[i].dmin, y[i].scales, q);
    for (int run = 0; run < 4; ++run) {
      for (int l = 0; l < 32; ++l) {
        y[i].qs[32 * run + l] = static_cast<uint8_t>(q[64 * run + l] | (q[64 * run + 32 + l] << 4));
      }
    }
  }
}

void quantize_q5_k(const float* x, BlockQ5_K* y, int64_t n_blocks) {
  for (int64_t i = 0; i < n_blocks; ++i, x += kQK_K) {
    uint8_t q[kQK_K];
    quantize_k4_superblock(x, 31, {-0.5f, 0.1f, 15, false}, &y[i].d, &y[i].dmin, y[i].scales, q);
    std::memset(y[i].qh, 0, sizeof(y[i].qh));
    for (int run = 0; run < 4; ++run) {
      for (int l = 0; l < 32; ++l) {
        const uint8_t lo = q[64 * run + l], hi = q[64 * run + 32 + l];
        y[i].qs[32 * run + l] = static_cast<uint8_t>((lo & 0xf) | ((hi & 0xf) << 4));
        y[i].qh[l] |= static_cast<uint8_t>(((lo >> 4) << (2 * run)) | ((hi >> 4) << (2 * run + 1)));
      }
    }
  }
}

void quantize_q6_k(const float* x, BlockQ6_K* y, int64_t n_blocks) {
  for (int64_t i = 0; i < n_blocks; ++i, x += kQK_K) {
    int8_t l8[kQK_K];
    float scales[16];
    float max_scale = 0, max_abs_scale = 0;
    for (int j = 0; j < 16; ++j) {
      scales[j] = fit_symmetric(16, 32, x + 16 * j, l8 + 16 * j);
      if (std::fabs(scales[j]) > max_abs_scale) {
        max_abs_scale = std::fabs(scales[j]);
        max_scale = scales[j];
      }
    }
    if (max_abs_scale < kGroupMaxEps) {
      std::memset(&y[i], 0, sizeof(BlockQ6_K));
      continue;
    }
    const float iscale = -128.f / max_scale;
    y[i].d = f32_to_f16(1 / iscale);
    for (int j = 0; j < 16; ++j) {
      y[i].scales[j] = static_cast<int8_t>(std::min(127, nearest_int(iscale * scales[j])));
    }
    uint8_t q[kQK_K];
    for (int e = 0; e < kQK_K; ++e) q[e] = static_cast<uint8_t>(l8[e]);
    for (int j = 0; j < 16; ++j) {
      const float d = f16_to_f32(y[i].d) * y[i].scales[j];
      if (d == 0.0f) continue;
      for (int l = 0; l < 16; ++l) {
        q[16 * j + l] =
            static_cast<uint8_t>(std::clamp(nearest_int(x[16 * j + l] / d), -32, 31) + 32);
      }
    }
    for (int half = 0; half < 2; ++half) {
      const uint8_t* h = q + 128 * half;
      uint8_t* ql = y[i].ql + 64 * half;
      uint8_t* qh = y[i].qh + 32 * half;
      for (int l = 0; l < 32; ++l) {
        ql[l] = static_cast<uint8_t>((h[l] & 0xf) | ((h[l + 64] & 0xf) << 4));
        ql[l + 32] = static_cast<uint8_t>((h[l + 32] & 0xf) | ((h[l + 96] & 0xf) << 4));
        qh[l] = static_cast<uint8_t>((h[l] >> 4) | ((h[l + 32] >> 4) << 2) |
                                     ((h[l + 64] >> 4) << 4) | ((h[l + 96] >> 4) << 6));
      }
    }
  }
}

}  // namespace ingot::kernels
