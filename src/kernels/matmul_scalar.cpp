// The scalar path: the reference every SIMD kernel is compared with.
#include "kernels/activation_pack.h"
#include "kernels/dispatch.h"
#include "kernels/vec_dot.h"

namespace ingot::kernels {
namespace {

template <ElementType kType>
void tile(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
          int64_t y_stride) {
  const auto* base = static_cast<const uint8_t*>(w.data);
  for (int64_t t = range.tok_begin; t < range.tok_end; ++t) {
    for (int64_t r = range.row_begin; r < range.row_end; ++r) {
      y[t * y_stride + r] = vec_dot(kType, base + r * w.row_stride, x.row(t), w.cols);
    }
  }
}

template <ElementType kPacked>
void pack(const float* x, void* dst, int64_t n) {
  pack_activation_row(kPacked, x, dst, n);
}

}  // namespace

TileKernel scalar_tile_kernel(ElementType type) {
  using T = ElementType;
  switch (type) {
    case T::kF32:
      return tile<T::kF32>;
    case T::kF16:
      return tile<T::kF16>;
    case T::kBF16:
      return tile<T::kBF16>;
    case T::kQ4_0:
      return tile<T::kQ4_0>;
    case T::kQ4_1:
      return tile<T::kQ4_1>;
    case T::kQ5_0:
      return tile<T::kQ5_0>;
    case T::kQ5_1:
      return tile<T::kQ5_1>;
    case T::kQ8_0:
      return tile<T::kQ8_0>;
    case T::kQ8_1:
      return tile<T::kQ8_1>;
    case T::kQ2_K:
      return tile<T::kQ2_K>;
    case T::kQ3_K:
      return tile<T::kQ3_K>;
    case T::kQ4_K:
      return tile<T::kQ4_K>;
    case T::kQ5_K:
      return tile<T::kQ5_K>;
    case T::kQ6_K:
      return tile<T::kQ6_K>;
    case T::kQ8_K:
      return tile<T::kQ8_K>;
    case T::kIQ4_NL:
      return tile<T::kIQ4_NL>;
    case T::kIQ4_XS:
      return tile<T::kIQ4_XS>;
    case T::kMXFP4:
      return tile<T::kMXFP4>;
    default:
      return nullptr;
  }
}

PackRowFn scalar_pack_row(ElementType packed) {
  using T = ElementType;
  switch (packed) {
    case T::kF32:
      return pack<T::kF32>;
    case T::kF16:
      return pack<T::kF16>;
    case T::kBF16:
      return pack<T::kBF16>;
    case T::kQ8_0:
      return pack<T::kQ8_0>;
    case T::kQ8_1:
      return pack<T::kQ8_1>;
    case T::kQ8_K:
      return pack<T::kQ8_K>;
    default:
      return nullptr;
  }
}

}  // namespace ingot::kernels
