#pragma once
// add_low_rank's loop, written once for any vector width: V is a Floats
// policy (ops_float_shape.h) with load_f16.
// Include only from the SIMD files (*_avx2.cpp, *_avx512.cpp, *_neon.cpp) that
// define V.

#include <cstdint>

#include "kernels/ops_low_rank.h"

namespace ingot::kernels {

template <class V>
void add_low_rank_lanes(const float* m, int64_t rank, const uint16_t* b, int64_t begin, int64_t end,
                        float* y) {
  constexpr int64_t kLanes = V::kLanes;
  constexpr int64_t kVectors = kLowRankBlock / kLanes;  // per block
  // Four registers of outputs at a time: four independent FMA chains.
  constexpr int64_t kRegisters = 4;
  constexpr int64_t kBlocks = kRegisters / kVectors;
  const int64_t block_size = rank * kLowRankBlock;
  int64_t o = begin;
  for (; o + kBlocks * kLowRankBlock <= end; o += kBlocks * kLowRankBlock) {
    const uint16_t* blocks = b + o / kLowRankBlock * block_size;
    typename V::F acc[kRegisters];
    for (int64_t j = 0; j < kRegisters; ++j) acc[j] = V::load(y + o + j * kLanes);
    for (int64_t k = 0; k < rank; ++k) {
      const typename V::F mk = V::broadcast(m[k]);
      for (int64_t g = 0; g < kBlocks; ++g) {
        const uint16_t* values = blocks + g * block_size + k * kLowRankBlock;
        for (int64_t v = 0; v < kVectors; ++v) {
          typename V::F& a = acc[g * kVectors + v];
          a = V::fmadd(mk, V::load_f16(values + v * kLanes), a);
        }
      }
    }
    for (int64_t j = 0; j < kRegisters; ++j) V::store(y + o + j * kLanes, acc[j]);
  }
  scalar::add_low_rank(m, rank, b, o, end, y);
}

}  // namespace ingot::kernels
