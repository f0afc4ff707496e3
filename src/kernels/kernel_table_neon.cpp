// The AArch64 path (Advanced SIMD): the kernels it has of its own, with
// the DotProd (SDOT) and I8MM (SMMLA) variants where the processor has them.
#include "kernels/cpu_features.h"
#include "kernels/kernel_table.h"
#include "kernels/matmul_kernels_neon.h"
#include "kernels/ops_activation.h"
#include "kernels/ops_norm.h"
#include "kernels/ops_softmax.h"

namespace ingot::kernels {

void add_neon_kernels(KernelTable& t) {
  const bool dotprod = cpu_features().dotprod;
  for (uint32_t id = 0; id < KernelTable::kTypeSlots; ++id) {
    const std::optional<ElementType> type = element_type_from_id(id);
    if (!type) continue;
    TileKernel q8_family = dotprod ? q8_0_family_tile_dotprod(*type) : q8_0_family_tile_neon(*type);
    if (q8_family != nullptr) t.tiles[id] = q8_family;
  }
  t.tiles[KernelTable::slot(ElementType::kF16)] = f16_tile_neon;
  t.tiles[KernelTable::slot(ElementType::kBF16)] = bf16_tile_neon;
  t.tiles[KernelTable::slot(ElementType::kF32)] = f32_tile_neon;
  t.rms_norm = neon::rms_norm;
  t.silu = neon::silu;
  t.gelu = neon::gelu;
  t.swiglu = neon::swiglu;
  t.softmax = neon::softmax;
  t.attention_accumulate = neon::attention_accumulate;
}

}  // namespace ingot::kernels
