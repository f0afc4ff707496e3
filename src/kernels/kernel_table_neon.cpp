// The AArch64 path (Advanced SIMD): the kernels it has of its own, with
// the DotProd (SDOT) and I8MM (SMMLA) variants where the processor has them.
#include "kernels/cpu_features.h"
#include "kernels/kernel_table.h"
#include "kernels/matmul_kernels_neon.h"
#include "kernels/ops_activation.h"
#include "kernels/ops_delta_rule.h"
#include "kernels/ops_exp_sum.h"
#include "kernels/ops_low_rank.h"
#include "kernels/ops_norm.h"
#include "kernels/ops_softmax.h"

namespace ingot::kernels {

void add_neon_kernels(KernelTable& t) {
  const CpuFeatures& cpu = cpu_features();
  const auto q8_family = cpu.i8mm      ? q8_0_family_tile_i8mm
                         : cpu.dotprod ? q8_0_family_tile_dotprod
                                       : q8_0_family_tile_neon;
  const auto k_quants = cpu.dotprod ? k_quants_tile_dotprod : k_quants_tile_neon;
  for (uint32_t id = 0; id < KernelTable::kTypeSlots; ++id) {
    const std::optional<ElementType> type = element_type_from_id(id);
    if (!type) continue;
    if (TileKernel k = q8_family(*type)) t.tiles[id] = k;
    if (TileKernel k = k_quants(*type)) t.tiles[id] = k;
    if (PackRowFn p = neon_pack_row(*type)) t.packers[id] = p;
    if (WidenKeysFn w = neon::widen_keys_fn(*type)) t.key_wideners[id] = w;
    if (WidenValuesFn w = neon::widen_values_fn(*type)) t.value_wideners[id] = w;
  }
  t.tiles[KernelTable::slot(ElementType::kF16)] = f16_tile_neon;
  t.tiles[KernelTable::slot(ElementType::kBF16)] = bf16_tile_neon;
  t.tiles[KernelTable::slot(ElementType::kF32)] = f32_tile_neon;
  t.rms_norm = neon::rms_norm;
  t.silu = neon::silu;
  t.gelu = neon::gelu;
  t.swiglu = neon::swiglu;
  t.softmax = neon::softmax;
  t.sum_exp = neon::sum_exp;
  t.exp_terms = neon::exp_terms;
  t.attention_accumulate = neon::attention_accumulate;
  t.add_low_rank = neon::add_low_rank;
  t.delta_rule_step = neon::delta_rule_step;
  t.delta_rule_chunk = neon::delta_rule_chunk;
}

}  // namespace ingot::kernels
