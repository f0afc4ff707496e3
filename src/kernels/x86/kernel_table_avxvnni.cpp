// The AVX2 path with AVX-VNNI: its interleaved kernels take vpdpbusd on
// 256 bits, and so cover every interleaved type (the AVX2 table beneath).
#include "kernels/kernel_table.h"
#include "kernels/x86/matmul_kernels_avx2.h"

namespace ingot::kernels {

void add_avxvnni_kernels(KernelTable& t) {
  for (uint32_t id = 0; id < KernelTable::kTypeSlots; ++id) {
    const std::optional<ElementType> type = element_type_from_id(id);
    if (!type) continue;
    if (TileKernel k = avxvnni::interleaved_tile_kernel(*type)) {
      t.tiles[id] = k;
      t.interleaving[id] = KernelTable::Interleaving::kEveryMatrix;
    }
  }
}

}  // namespace ingot::kernels
