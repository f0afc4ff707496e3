// The AVX-512 path (F/BW/VL/DQ + VNNI): the kernels it has of its own,
// among them those over interleaved weights.
#include "kernels/interleave.h"
#include "kernels/kernel_table.h"
#include "kernels/matmul_kernels_avx512.h"
#include "kernels/ops_activation.h"
#include "kernels/ops_exp_sum.h"
#include "kernels/ops_low_rank.h"
#include "kernels/ops_norm.h"
#include "kernels/ops_softmax.h"

namespace ingot::kernels {

void add_avx512_kernels(KernelTable& t) {
  for (uint32_t id = 0; id < KernelTable::kTypeSlots; ++id) {
    const std::optional<ElementType> type = element_type_from_id(id);
    if (!type) continue;
    if (TileKernel k = avx512_tile_kernel(*type)) t.tiles[id] = k;
    if (PackRowFn p = avx512_pack_row(*type)) t.packers[id] = p;
    if (WidenKeysFn w = avx512::widen_keys_fn(*type)) t.key_wideners[id] = w;
    if (WidenValuesFn w = avx512::widen_values_fn(*type)) t.value_wideners[id] = w;
    t.interleaving[id] = can_interleave(*type) ? KernelTable::Interleaving::kEveryMatrix
                                               : KernelTable::Interleaving::kNone;
  }
  t.interleave_row = interleave_activation_row_avx512;
  t.rms_norm = avx512::rms_norm;
  t.silu = avx512::silu;
  t.gelu = avx512::gelu;
  t.swiglu = avx512::swiglu;
  t.softmax = avx512::softmax;
  t.sum_exp = avx512::sum_exp;
  t.exp_terms = avx512::exp_terms;
  t.attention_accumulate = avx512::attention_accumulate;
  t.delta_rule_step = avx512::delta_rule_step;
  t.delta_rule_chunk = avx512::delta_rule_chunk;
  t.add_low_rank = avx512::add_low_rank;
}

}  // namespace ingot::kernels
