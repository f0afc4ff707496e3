// The AArch64 path (Advanced SIMD): the kernels it has of its own, with
// the DotProd (SDOT) and I8MM (SMMLA) variants where the processor has them.
#include "kernels/arm/matmul_kernels_neon.h"
#include "kernels/arm/ops_vector_math_neon.h"
#include "kernels/cpu_features.h"
#include "kernels/kernel_table.h"
#include "kernels/shapes/row_ops_shape.h"

namespace ingot::kernels {

void add_neon_kernels(KernelTable& t) {
  const CpuFeatures& cpu = cpu_features();
  const auto q8_family = cpu.i8mm      ? i8mm::q8_0_family_tile
                         : cpu.dotprod ? dotprod::q8_0_family_tile
                                       : neon::q8_0_family_tile;
  const auto k_quants = cpu.dotprod ? dotprod::k_quants_tile : neon::k_quants_tile;
  add_path_lookups(t, {nullptr, neon::pack_row, neon::widen_keys_fn, neon::widen_values_fn});
  for (uint32_t id = 0; id < KernelTable::kTypeSlots; ++id) {
    const std::optional<ElementType> type = element_type_from_id(id);
    if (!type) continue;
    if (TileKernel k = q8_family(*type)) t.tiles[id] = k;
    if (TileKernel k = k_quants(*type)) t.tiles[id] = k;
  }
  for (const TileEntry& entry : neon::float_tiles())
    t.tiles[KernelTable::slot(entry.type)] = entry.kernel;
  add_row_ops<neon::Floats>(t);
}

}  // namespace ingot::kernels
