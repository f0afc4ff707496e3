// The scalar reference path: every kernel the other paths are tested
// against, and what they fall back to for what they lack.
#include "kernels/kernel_table.h"
#include "kernels/ops_activation.h"
#include "kernels/ops_exp_sum.h"
#include "kernels/ops_low_rank.h"
#include "kernels/ops_norm.h"
#include "kernels/ops_softmax.h"

namespace ingot::kernels {

void add_scalar_kernels(KernelTable& t) {
  for (uint32_t id = 0; id < KernelTable::kTypeSlots; ++id) {
    const std::optional<ElementType> type = element_type_from_id(id);
    if (!type) continue;
    t.tiles[id] = scalar_tile_kernel(*type);
    t.packers[id] = scalar_pack_row(*type);
    if (kv_type_supported(*type) && *type != ElementType::kF16) {
      t.key_wideners[id] = scalar::widen_keys_fn(*type);
      t.value_wideners[id] = scalar::widen_values_fn(*type);
    }
  }
  t.rms_norm = scalar::rms_norm;
  t.silu = scalar::silu;
  t.gelu = scalar::gelu;
  t.swiglu = scalar::swiglu;
  t.softmax = scalar::softmax;
  t.sum_exp = scalar::sum_exp;
  t.exp_terms = scalar::exp_terms;
  t.attention_accumulate = scalar::attention_accumulate;
  t.delta_rule_step = scalar::delta_rule_step;
  t.delta_rule_chunk = scalar::delta_rule_chunk;
  t.add_low_rank = scalar::add_low_rank;
}

}  // namespace ingot::kernels
