#include "model/weight_arena.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>
#include <optional>
#include <string_view>
#include <vector>

#include "kernels/interleave.h"
#include "kernels/kernel_table.h"
#include "util/mapped_file.h"
#include "util/memory_info.h"
#include "util/page_arena.h"
#include "util/thread_pool.h"

namespace ingot::model {
namespace {

using kernels::WeightMatrix;

// A path with kernels over interleaved weights multiplies them faster from an
// interleaved copy made once at load.
bool uses_interleaved_copy(const WeightMatrix& w) {
  return kernels::active_kernels().interleaves(w.type, w.cols);
}

// Bytes of one row of w's arena copy.
size_t arena_row_bytes(const WeightMatrix& w) {
  return uses_interleaved_copy(w) ? kernels::interleaved_row_bytes(w.type, w.cols) : w.row_stride;
}

size_t arena_bytes(const WeightMatrix& w) {
  return arena_row_bytes(w) * static_cast<size_t>(w.rows);
}

// Copies w into the arena (interleaved where the active path reads that
// layout), rows split across the pool: on one thread the copy is a large
// part of a model's load time. The kernels read only the copy from
// then on. An interleaved matrix keeps its mapped blocks for the embedding
// lookup and the other paths, which page them back in from the file if
// they read them; each matrix's file pages are released once it is copied,
// so the copy holds at most one matrix's besides the arena.
void copy_into_arena(WeightMatrix& w, PageArena& arena, ThreadPool& pool) {
  const bool interleave = uses_interleaved_copy(w);
  const size_t stride = arena_row_bytes(w);
  uint8_t* copy = arena.take(stride * static_cast<size_t>(w.rows));
  const auto* rows = static_cast<const uint8_t*>(w.data);
  // About a MiB of rows per chunk.
  const int64_t grain = std::max<int64_t>(1, static_cast<int64_t>((size_t{1} << 20) / stride));
  pool.parallel_for(w.rows, grain, [&](int64_t begin, int64_t end) {
    if (!interleave) {
      std::memcpy(copy + begin * stride, rows + begin * w.row_stride,
                  static_cast<size_t>(end - begin) * stride);
      return;
    }
    for (int64_t r = begin; r < end; ++r) {
      kernels::interleave_weight_row(w.type, rows + r * w.row_stride, w.cols, copy + r * stride);
    }
  });
  const void* mapped = w.data;
  if (interleave) {
    w.interleaved = copy;
    w.interleaved_stride = stride;
  } else {
    w.data = copy;
  }
  release_mapped_pages(mapped, w.row_stride * static_cast<size_t>(w.rows));
}

std::vector<WeightMatrix*> streamed_matrices(ModelWeights& weights) {
  std::vector<WeightMatrix*> matrices;
  for (LayerWeights& layer : weights.layers) {
    for (WeightMatrix* w : {&layer.wq, &layer.wk, &layer.wv, &layer.wo, &layer.gate, &layer.up,
                            &layer.down, &layer.wqkv, &layer.wz, &layer.w_beta, &layer.w_alpha,
                            &layer.w_linear_out, &layer.per_layer_gate, &layer.per_layer_proj}) {
      if (w->rows > 0) matrices.push_back(w);  // a layer binds only its kind's matrices
    }
    for (auto* experts : {&layer.expert_gate, &layer.expert_up, &layer.expert_down}) {
      for (WeightMatrix& w : *experts) matrices.push_back(&w);
    }
  }
  if (weights.output.rows > 0) matrices.push_back(&weights.output);
  if (weights.self_conditioning) {
    SelfConditioningWeights& sc = *weights.self_conditioning;
    for (WeightMatrix* w : {&sc.gate, &sc.up, &sc.down}) matrices.push_back(w);
  }
  if (weights.prediction) {
    PredictionWeights& p = *weights.prediction;
    LayerWeights& b = p.block;
    for (WeightMatrix* w : {&b.wq, &b.wk, &b.wv, &b.wo, &b.gate, &b.up, &b.down, &p.combine}) {
      if (w->rows > 0) matrices.push_back(w);
    }
    for (auto* experts : {&b.expert_gate, &b.expert_up, &b.expert_down}) {
      for (WeightMatrix& w : *experts) matrices.push_back(&w);
    }
    if (p.head.rows > 0) matrices.push_back(&p.head);  // its own, not the trunk's
  }
  return matrices;
}

double gib(uint64_t bytes) {
  return static_cast<double>(bytes) / double(1 << 30);
}

}  // namespace

bool arena_fits(size_t arena_bytes, std::optional<uint64_t> available_bytes) {
  if (!available_bytes) return true;
  return arena_bytes <= *available_bytes / 4 * 3;
}

void move_matrices_to_arena(ModelWeights& weights) {
  if (const char* keep = std::getenv("INGOT_KEEP_WEIGHTS_MAPPED");
      keep != nullptr && *keep != '\0' && std::string_view(keep) != "0") {
    return;
  }
  const std::vector<WeightMatrix*> matrices = streamed_matrices(weights);
  size_t total = 0;
  for (const WeightMatrix* w : matrices) total += PageArena::footprint(arena_bytes(*w));
  const std::optional<uint64_t> available = available_memory_bytes();
  if (!arena_fits(total, available)) {
    spdlog::warn(
        "the weights ({:.1f} GiB) would take most of the {:.1f} GiB of memory available: "
        "reading them from the file instead of copying them (slower decode)",
        gib(total), gib(available.value_or(0)));
    return;
  }
  try {
    weights.arena = PageArena(total);
  } catch (const std::bad_alloc&) {
    spdlog::warn("could not reserve {:.1f} GiB for the weights: reading them from the file",
                 gib(total));
    return;
  }
  ThreadPool pool(ThreadPool::default_thread_count());
  for (WeightMatrix* w : matrices) copy_into_arena(*w, weights.arena, pool);
}

}  // namespace ingot::model
