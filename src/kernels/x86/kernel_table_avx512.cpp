// GCC 12 flags the deliberately undefined lanes inside its own AVX-512
// intrinsics (_mm512_undefined_ps, reduce_add) as uninitialized: a false
// positive.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"

// The AVX-512 path (F/BW/VL/DQ + VNNI): the kernels it has of its own,
// among them those over interleaved weights.
#include "kernels/interleave.h"
#include "kernels/kernel_table.h"
#include "kernels/shapes/row_ops_shape.h"
#include "kernels/x86/matmul_kernels_avx512.h"
#include "kernels/x86/ops_delta_rule_avx512.h"
#include "kernels/x86/ops_vector_math_avx512.h"

namespace ingot::kernels {

void add_avx512_kernels(KernelTable& t) {
  add_path_lookups(
      t, {avx512::tile_kernel, avx512::pack_row, avx512::widen_keys_fn, avx512::widen_values_fn});
  for (uint32_t id = 0; id < KernelTable::kTypeSlots; ++id) {
    const std::optional<ElementType> type = element_type_from_id(id);
    if (!type) continue;
    t.interleaving[id] = can_interleave(*type) ? KernelTable::Interleaving::kEveryMatrix
                                               : KernelTable::Interleaving::kNone;
  }
  t.interleave_row = avx512::interleave_activation_row;
  add_row_ops<avx512::Floats>(t);
  t.delta_rule_chunk = avx512::delta_rule_chunk;
}

}  // namespace ingot::kernels
