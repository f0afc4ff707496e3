// The AVX2 path (AVX2 + FMA + F16C). Types without a kernel here fall back
// to the scalar path.
#include "kernels/dispatch.h"

namespace ingot::kernels {

TileKernel avx2_tile_kernel(ElementType) {
  return nullptr;
}
PackRowFn avx2_pack_row(ElementType) {
  return nullptr;
}

}  // namespace ingot::kernels
