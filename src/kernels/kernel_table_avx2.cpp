// The AVX2 path (AVX2 + FMA + F16C): the kernels it has of its own.
#include "kernels/interleave.h"
#include "kernels/kernel_table.h"
#include "kernels/kv_tiles.h"
#include "kernels/matmul_kernels_avx2.h"
#include "kernels/ops_activation.h"
#include "kernels/ops_delta_rule.h"
#include "kernels/ops_exp_sum.h"
#include "kernels/ops_low_rank.h"
#include "kernels/ops_norm.h"
#include "kernels/ops_softmax.h"

namespace ingot::kernels {

void add_avx2_kernels(KernelTable& t) {
  for (uint32_t id = 0; id < KernelTable::kTypeSlots; ++id) {
    const std::optional<ElementType> type = element_type_from_id(id);
    if (!type) continue;
    if (TileKernel k = avx2_tile_kernel(*type)) t.tiles[id] = k;
    if (PackRowFn p = avx2_pack_row(*type)) t.packers[id] = p;
    if (WidenKeysFn w = avx2::widen_keys_fn(*type)) t.key_wideners[id] = w;
    if (WidenValuesFn w = avx2::widen_values_fn(*type)) t.value_wideners[id] = w;
    if (TileKernel k = avx2_interleaved_tile_kernel(*type)) {
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
  t.rms_norm = avx2::rms_norm;
  t.silu = avx2::silu;
  t.gelu = avx2::gelu;
  t.swiglu = avx2::swiglu;
  t.softmax = avx2::softmax;
  t.sum_exp = avx2::sum_exp;
  t.exp_terms = avx2::exp_terms;
  t.delta_rule_step = avx2::delta_rule_step;
  t.delta_rule_chunk = avx2::delta_rule_chunk;
  t.attention_accumulate = avx2::attention_accumulate;
  t.add_low_rank = avx2::add_low_rank;
}

}  // namespace ingot::kernels
