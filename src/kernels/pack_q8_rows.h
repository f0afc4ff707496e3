#pragma once
// The Q8_0 and Q8_1 row packers of a SIMD path, written once over its block
// quantizer: kQuantize(x, qs, &d) writes one 32-element block's quants with
// d = amax / 127 and returns their sum; kToF16 rounds like f32_to_f16.
//
// Included by the pack_<isa>.cpp files.

#include <cstdint>

#include "kernels/block_formats.h"

namespace ingot::kernels {

template <auto kQuantize, auto kToF16>
void pack_q8_0_rows(const float* x, void* dst, int64_t n) {
  auto* y = static_cast<BlockQ8_0*>(dst);
  for (int64_t b = 0; b < n / kQK; ++b) {
    float d;
    kQuantize(x + b * kQK, y[b].qs, &d);
    y[b].d = kToF16(d);
  }
}

template <auto kQuantize, auto kToF16>
void pack_q8_1_rows(const float* x, void* dst, int64_t n) {
  auto* y = static_cast<BlockQ8_1*>(dst);
  for (int64_t b = 0; b < n / kQK; ++b) {
    float d;
    const int sum = kQuantize(x + b * kQK, y[b].qs, &d);
    y[b].d = kToF16(d);
    y[b].s = kToF16(d * static_cast<float>(sum));
  }
}

}  // namespace ingot::kernels
