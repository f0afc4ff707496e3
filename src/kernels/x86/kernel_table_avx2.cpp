// The AVX2 path (AVX2 + FMA + F16C): the kernels it has of its own.
#include "kernels/interleave.h"
#include "kernels/kernel_table.h"
#include "kernels/kv_tiles.h"
#include "kernels/shapes/row_ops_shape.h"
#include "kernels/x86/matmul_kernels_avx2.h"
#include "kernels/x86/ops_vector_math_avx2.h"

namespace ingot::kernels {

void add_avx2_kernels(KernelTable& t) {
  add_path_lookups(t,
                   {avx2::tile_kernel, avx2::pack_row, avx2::widen_keys_fn, avx2::widen_values_fn});
  for (uint32_t id = 0; id < KernelTable::kTypeSlots; ++id) {
    const std::optional<ElementType> type = element_type_from_id(id);
    if (!type) continue;
    if (TileKernel k = avx2::interleaved_tile_kernel(*type)) {
      t.tiles[id] = k;
      // Q8_0's kernel here (magnitudes against signed activations, one
      // widening a step) gains less over its block kernel than the other
      // types' do, and less in decode than a padded last group costs: rows
      // of 896 columns stream 1024.
      t.interleaving[id] = *type == ElementType::kQ8_0 ? KernelTable::Interleaving::kWholeGroupsOnly
                                                       : KernelTable::Interleaving::kEveryMatrix;
    }
  }
  t.interleave_row = interleave_activation_row;
  add_row_ops<avx2::Floats>(t);
}

}  // namespace ingot::kernels
