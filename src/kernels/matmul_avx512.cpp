// The AVX-512 path (F/BW/VL/DQ + VNNI). Types without a kernel here fall
// back to the AVX2 path.
#include "kernels/dispatch.h"

namespace ingot::kernels {

TileKernel avx512_tile_kernel(ElementType) {
  return nullptr;
}
PackRowFn avx512_pack_row(ElementType) {
  return nullptr;
}

}  // namespace ingot::kernels
