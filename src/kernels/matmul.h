#pragma once
// Matrix multiplication of a weight matrix (any supported element type) by
// F32 activations: y[t][o] = sum_i W[o][i] * x[t][i] for every token row t.
//
// Activations are packed once per input (kernels/packed_activations.h) and
// the packed input is reused for every matrix that reads it (q/k/v,
// gate/up).

#include <cstddef>
#include <cstdint>
#include <span>

#include "kernels/element_type.h"
#include "kernels/packed_activations.h"
#include "util/thread_pool.h"

namespace ingot::kernels {

// A row-major weight matrix: `rows` output features, each a row of `cols`
// input features stored as consecutive blocks of `type`.
struct WeightMatrix {
  ElementType type;
  const void* data;
  int64_t rows;
  int64_t cols;
  size_t row_stride;  // bytes from one row to the next
  // The same rows in the interleaved layout (kernels/interleave.h), or
  // null; paths that do not use it read `data`.
  const void* interleaved = nullptr;
  size_t interleaved_stride = 0;
};

// y is n_tokens x w.rows, row-major, with rows `y_stride` floats apart.
void matmul(const WeightMatrix& w, const PackedActivations& x, float* y, int64_t y_stride,
            ThreadPool& pool);

// One product of a matmul_all call: y = x times w's rows, as matmul.
struct MatmulProduct {
  const WeightMatrix* w;
  const PackedActivations* x;
  float* y;
  int64_t y_stride;
};

// Several products in one parallel region: the threads take work items
// from all of them in turn. A layer's q, k and v (or gate and up)
// projections then share one dispatch and one tail, where on their own
// the small k and v each paid both (decode runs ~200 regions a step).
void matmul_all(std::span<const MatmulProduct> products, ThreadPool& pool);

// Packs x and multiplies: for callers that read an input once.
void matmul(const WeightMatrix& w, const float* x, int64_t n_tokens, float* y, ThreadPool& pool);

}  // namespace ingot::kernels
