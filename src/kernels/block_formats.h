#pragma once
// The byte layout of one block of each quantized GGUF type, as llama.cpp
// writes them (ggml-common.h). All scales are F16 bit patterns except Q8_K's.
// Q4_0 and friends hold 32 elements: byte j of qs carries element j in its
// low nibble and element j + 16 in its high nibble. The K-quants hold 256
// elements in sub-blocks of 16 or 32 with their own small integer scales.

#include <cstdint>

namespace ingot::kernels {

inline constexpr int kQK = 32;     // elements per block of the 32-element types
inline constexpr int kQK_K = 256;  // elements per K-quant super-block
inline constexpr int kSubBlocksPerSuperBlock = kQK_K / kQK;  // of 32 elements

struct BlockQ4_0 {
  uint16_t d;
  uint8_t qs[kQK / 2];
};

struct BlockQ4_1 {
  uint16_t d;
  uint16_t m;
  uint8_t qs[kQK / 2];
};

struct BlockQ5_0 {
  uint16_t d;
  uint8_t qh[4];  // bit j: the fifth bit of element j (little-endian u32)
  uint8_t qs[kQK / 2];
};

struct BlockQ5_1 {
  uint16_t d;
  uint16_t m;
  uint8_t qh[4];
  uint8_t qs[kQK / 2];
};

struct BlockQ8_0 {
  uint16_t d;
  int8_t qs[kQK];
};

struct BlockQ8_1 {
  uint16_t d;
  uint16_t s;  // d * sum(qs), for the min term of Q4_1/Q5_1 dot products
  int8_t qs[kQK];
};

struct BlockQ2_K {
  uint8_t scales[kQK_K / 16];  // low nibble scale, high nibble min, per 16
  uint8_t qs[kQK_K / 4];
  uint16_t d;
  uint16_t dmin;
};

struct BlockQ3_K {
  uint8_t hmask[kQK_K / 8];
  uint8_t qs[kQK_K / 4];
  uint8_t scales[12];  // 16 six-bit scales, packed
  uint16_t d;
};

struct BlockQ4_K {
  uint16_t d;
  uint16_t dmin;
  uint8_t scales[12];  // 8 six-bit scales and 8 six-bit mins, packed
  uint8_t qs[kQK_K / 2];
};

struct BlockQ5_K {
  uint16_t d;
  uint16_t dmin;
  uint8_t scales[12];
  uint8_t qh[kQK_K / 8];
  uint8_t qs[kQK_K / 2];
};

struct BlockQ6_K {
  uint8_t ql[kQK_K / 2];
  uint8_t qh[kQK_K / 4];
  int8_t scales[kQK_K / 16];
  uint16_t d;
};

struct BlockQ8_K {
  float d;
  int8_t qs[kQK_K];
  int16_t bsums[kQK_K / 16];  // sum of each 16 qs, for the K-quants' min terms
};

// The non-linear 4-bit types: a nibble indexes a table of 16 signed
// values. IQ4_NL holds 32 elements with an F16 scale (nibble order as
// Q4_0's); IQ4_XS 256 in sub-blocks of 32, each with a 6-bit scale
// (low 4 bits in scales_l, high 2 in scales_h) taken less 32 and times d;
// MXFP4 32 elements of FP4 (E2M1, doubled) with a power-of-two scale
// (E8M0, halved).
struct BlockIQ4_NL {
  uint16_t d;
  uint8_t qs[kQK / 2];
};

struct BlockIQ4_XS {
  uint16_t d;
  uint16_t scales_h;
  uint8_t scales_l[kQK_K / 64];
  uint8_t qs[kQK_K / 2];
};

struct BlockMXFP4 {
  uint8_t e;
  uint8_t qs[kQK / 2];
};

inline constexpr int8_t kIq4NlValues[16] = {-127, -104, -83, -65, -49, -35, -22, -10,
                                            1,    13,   25,  38,  53,  69,  89,  113};
inline constexpr int8_t kMxfp4Values[16] = {0, 1,  2,  3,  4,  6,  8,  12,
                                            0, -1, -2, -3, -4, -6, -8, -12};

// Sub-block j's 6-bit scale of an IQ4_XS block, less 32.
inline int iq4_xs_scale(const BlockIQ4_XS& block, int j) {
  const int low = (block.scales_l[j / 2] >> (4 * (j % 2))) & 0xf;
  const int high = (block.scales_h >> (2 * j)) & 3;
  return (low | high << 4) - 32;
}

// MXFP4's scale: 2^(e - 127), halved to undo the table's doubling (as
// llama.cpp's GGML_E8M0_TO_FP32_HALF, denormal for e < 2).
inline float mxfp4_scale(uint8_t e) {
  const uint32_t bits = e < 2 ? 0x00200000u << e : uint32_t(e - 1) << 23;
  float value;
  __builtin_memcpy(&value, &bits, sizeof value);
  return value;
}

static_assert(sizeof(BlockQ4_0) == 18);
static_assert(sizeof(BlockQ4_1) == 20);
static_assert(sizeof(BlockQ5_0) == 22);
static_assert(sizeof(BlockQ5_1) == 24);
static_assert(sizeof(BlockQ8_0) == 34);
static_assert(sizeof(BlockQ8_1) == 36);
static_assert(sizeof(BlockQ2_K) == 84);
static_assert(sizeof(BlockQ3_K) == 110);
static_assert(sizeof(BlockQ4_K) == 144);
static_assert(sizeof(BlockQ5_K) == 176);
static_assert(sizeof(BlockQ6_K) == 210);
static_assert(sizeof(BlockQ8_K) == 292);
static_assert(sizeof(BlockIQ4_NL) == 18);
static_assert(sizeof(BlockIQ4_XS) == 136);
static_assert(sizeof(BlockMXFP4) == 17);

// The 6-bit scale and min of sub-block j (0..7) of a Q4_K/Q5_K block: the
// first four live in the low 6 bits of bytes 0..7, the last four are split
// into a nibble of bytes 8..11 and the top 2 bits of bytes 0..7.
struct ScaleMin {
  uint8_t scale;
  uint8_t min;
};

inline ScaleMin k4_scale_min(const uint8_t* scales, int j) {
  if (j < 4) {
    return {static_cast<uint8_t>(scales[j] & 63), static_cast<uint8_t>(scales[j + 4] & 63)};
  }
  return {static_cast<uint8_t>((scales[j + 4] & 0xf) | ((scales[j - 4] >> 6) << 4)),
          static_cast<uint8_t>((scales[j + 4] >> 4) | ((scales[j] >> 6) << 4))};
}

// The 6-bit value (0..63) of element e of a Q6_K block (the weight is
// d * scales[e / 16] * (value - 32)). Each 128-element half uses 64 bytes
// of ql (low nibbles: runs 0, 1 of 32 elements; high nibbles: runs 2, 3)
// and 32 bytes of qh (bit pairs 0..3 for runs 0..3).
inline int q6_k_value(const BlockQ6_K& b, int e) {
  const int half = e / 128, run = (e % 128) / 32, l = e % 32;
  const uint8_t low_byte = b.ql[64 * half + 32 * (run % 2) + l];
  const int low = run < 2 ? low_byte & 0xf : low_byte >> 4;
  const int high = (b.qh[32 * half + l] >> (2 * run)) & 3;
  return low | (high << 4);
}

// The 16 signed scales of a Q3_K block (6 bits each, stored with bias 32):
// low nibbles in bytes 0..7, high 2 bits in bytes 8..11.
inline void q3_k_scales(const uint8_t* packed, int8_t out[16]) {
  for (int j = 0; j < 16; ++j) {
    int low = j < 8 ? packed[j] & 0xf : packed[j - 8] >> 4;
    int high = (packed[8 + j % 4] >> (2 * (j / 4))) & 3;
    out[j] = static_cast<int8_t>((low | (high << 4)) - 32);
  }
}

}  // namespace ingot::kernels
