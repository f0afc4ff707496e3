#pragma once
// The kernels of one instruction-set path, gathered in one table. The
// tables are filled once, at first use: the scalar reference first, then
// each path, simplest first, overwrites the entries it has its own kernel
// for, so every entry holds a kernel on every path. Ops call through the
// active table (active_kernels()) instead of asking on each call which path
// to take; tests take any path's table (kernel_table) to hold it against
// the scalar one.

#include <array>
#include <cstdint>

#include "kernels/dispatch.h"
#include "kernels/kv_tiles.h"
#include "kernels/ops_attention.h"
#include "kernels/ops_delta_rule.h"
#include "kernels/packed_activations.h"

namespace ingot::kernels {

struct KernelTable {
  using RmsNormFn = void (*)(const float* x, const float* weight, float* y, int64_t n_rows,
                             int64_t n, float eps);
  using UnaryFn = void (*)(const float* x, float* y, int64_t n);
  using SwigluFn = void (*)(const float* gate, const float* up, float* out, int64_t n);
  using SoftmaxFn = void (*)(float* x, int64_t n);
  using SumExpFn = double (*)(const float* x, int64_t n, float shift);
  using ExpTermsFn = void (*)(const float* x, int64_t n, float shift, double* out);
  using AttentionFn = void (*)(const float* q, int64_t n_q, const uint16_t* keys,
                               int64_t key_stride, const uint16_t* values, int64_t n,
                               int64_t head_dim, ScoreScale scale, AttentionState* states,
                               float* outputs);
  using DeltaRuleStepFn = void (*)(float* state, const float* q, const float* k, const float* v,
                                   float log_decay, float beta, int64_t n, float* out);
  using DeltaRuleChunkFn = void (*)(float* state, const DeltaRuleRun& run, int64_t n);
  using LowRankFn = void (*)(const float* m, int64_t rank, const uint16_t* b, int64_t begin,
                             int64_t end, float* y);

  // Element types are indexed by their GGUF id, all below this.
  static constexpr size_t kTypeSlots = 40;

  Isa isa = Isa::kScalar;
  std::array<TileKernel, kTypeSlots> tiles{};
  std::array<PackRowFn, kTypeSlots> packers{};
  std::array<WidenKeysFn, kTypeSlots> key_wideners{};
  std::array<WidenValuesFn, kTypeSlots> value_wideners{};
  // Whether the type's tile kernel also multiplies interleaved weights
  // (kernels/interleave.h), which a model then copies into that layout:
  // every matrix of the type, or only those whose rows fill whole groups
  // (for a kernel that gains less than a padded last group costs to stream).
  enum class Interleaving : uint8_t { kNone, kEveryMatrix, kWholeGroupsOnly };
  std::array<Interleaving, kTypeSlots> interleaving{};
  // Activations laid out for the kernels over interleaved weights (Q8_0 and
  // Q8_K operands); a path without it does not interleave weights either.
  InterleaveRowFn interleave_row = nullptr;

  RmsNormFn rms_norm = nullptr;
  UnaryFn silu = nullptr;
  UnaryFn gelu = nullptr;
  SwigluFn swiglu = nullptr;
  SoftmaxFn softmax = nullptr;
  SumExpFn sum_exp = nullptr;
  ExpTermsFn exp_terms = nullptr;
  AttentionFn attention_accumulate = nullptr;
  DeltaRuleStepFn delta_rule_step = nullptr;
  DeltaRuleChunkFn delta_rule_chunk = nullptr;
  LowRankFn add_low_rank = nullptr;

  // nullptr for a type no path multiplies (or packs, or caches).
  TileKernel tile_kernel(ElementType weight_type) const { return tiles[slot(weight_type)]; }
  PackRowFn pack_row(ElementType packed_type) const { return packers[slot(packed_type)]; }
  WidenKeysFn widen_keys(ElementType cache_type) const { return key_wideners[slot(cache_type)]; }
  WidenValuesFn widen_values(ElementType cache_type) const {
    return value_wideners[slot(cache_type)];
  }
  // Whether weights of `type` have kernels over an interleaved copy, and
  // whether a matrix of `type` with rows of `cols` is given one at load.
  bool interleaves(ElementType weight_type) const;
  bool interleaves(ElementType weight_type, int64_t cols) const;
  // The interleaver for activations packed as `packed_type`, or nullptr.
  InterleaveRowFn interleave_row_for(ElementType packed_type) const;

  static size_t slot(ElementType type) {
    static_assert(static_cast<size_t>(ElementType::kMXFP4) < kTypeSlots);
    return static_cast<size_t>(type);
  }
};

// The active path's table (the best this CPU runs, or the one select_isa
// or set_isa_override chose).
const KernelTable& active_kernels();

// The table of `isa`, or nullptr when this CPU cannot run it.
const KernelTable* kernel_table(Isa isa);

// What a path has by type, each lookup nullptr where it has nothing, and
// each answering nullptr for a type it has nothing for.
struct PathLookups {
  TileKernel (*tile)(ElementType weight_type) = nullptr;
  PackRowFn (*pack_row)(ElementType packed_type) = nullptr;
  WidenKeysFn (*widen_keys)(ElementType kv_type) = nullptr;
  WidenValuesFn (*widen_values)(ElementType kv_type) = nullptr;
};

// Sets, for every type, what `path` has over what the paths before it set.
void add_path_lookups(KernelTable& table, const PathLookups& path);

// What each path adds over the simpler ones; one per kernel_table_<isa>.cpp.
void add_scalar_kernels(KernelTable& table);
void add_avx2_kernels(KernelTable& table);
void add_avxvnni_kernels(KernelTable& table);
void add_avx512_kernels(KernelTable& table);
void add_neon_kernels(KernelTable& table);

}  // namespace ingot::kernels
