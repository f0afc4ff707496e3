#include "model/forward/soft_embedding.h"

#include <algorithm>

#include "kernels/dequantize.h"
#include "kernels/half.h"
#include "model/row_math.h"

namespace ingot::model {
namespace {

// Vocabulary rows widened together: each is read once per range, then
// added to every position that gives it weight.
constexpr int64_t kRowsPerChunk = 16;

float as_f16(float x) {
  return kernels::f16_to_f32(kernels::f32_to_f16(x));
}

}  // namespace

// Each task sums its own stretch of the vocabulary into a partial of its
// own; the partials are added in task order, so the sum does not depend
// on which thread ran which task.
void SoftEmbedding::run(std::span<const float* const> probabilities,
                        const kernels::WeightMatrix& table, int64_t n_vocab, int64_t n_embd,
                        float* out, ThreadPool& pool) {
  const auto n_rows = int64_t(probabilities.size());
  const int64_t n_tasks = std::max<int64_t>(1, std::min<int64_t>(pool.size(), 8));
  const int64_t stretch = (n_vocab + n_tasks - 1) / n_tasks;
  const int64_t row_values = n_rows * n_embd;
  grow(partials_, n_tasks * row_values);
  pool.parallel_for(n_tasks, 1, [&](int64_t begin, int64_t end) {
    for (int64_t task = begin; task < end; ++task) {
      float* partial = partials_.data() + task * row_values;
      std::fill_n(partial, row_values, 0.0f);
      const int64_t first = task * stretch, last = std::min(n_vocab, first + stretch);
      if (first < last) accumulate_range(probabilities, table, first, last, n_embd, partial);
    }
  });
  std::copy_n(partials_.data(), row_values, out);
  for (int64_t task = 1; task < n_tasks; ++task) {
    add_in_place(out, partials_.data() + task * row_values, row_values);
  }
}

void SoftEmbedding::accumulate_range(std::span<const float* const> probabilities,
                                     const kernels::WeightMatrix& table, int64_t first,
                                     int64_t last, int64_t n_embd, float* partial) {
  thread_local std::vector<float> widened;
  grow(widened, kRowsPerChunk * n_embd);
  const auto* rows = static_cast<const uint8_t*>(table.data);
  for (int64_t chunk = first; chunk < last; chunk += kRowsPerChunk) {
    const int64_t n = std::min(kRowsPerChunk, last - chunk);
    bool widened_yet = false;
    for (size_t r = 0; r < probabilities.size(); ++r) {
      const float* p = probabilities[r];
      if (p == nullptr) continue;
      float* sum = partial + int64_t(r) * n_embd;
      for (int64_t j = 0; j < n; ++j) {
        const float weight = as_f16(p[chunk + j]);
        if (weight == 0.0f) continue;
        if (!widened_yet) {
          float* widened_rows = widened.data();
          for (int64_t k = 0; k < n; ++k) {
            kernels::dequantize_row(table.type, rows + (chunk + k) * table.row_stride,
                                    widened_rows + k * n_embd, n_embd);
          }
          for (int64_t i = 0; i < n * n_embd; ++i) widened_rows[i] = as_f16(widened_rows[i]);
          widened_yet = true;
        }
        const float* row = widened.data() + j * n_embd;
        for (int64_t d = 0; d < n_embd; ++d) sum[d] += weight * row[d];
      }
    }
  }
}

}  // namespace ingot::model
