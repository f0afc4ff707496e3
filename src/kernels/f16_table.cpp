#include "kernels/f16_table.h"

#include <vector>

#include "kernels/half.h"

namespace ingot::kernels {

const float* f16_table() {
  static const std::vector<float> table = [] {
    std::vector<float> t(65536);
    for (uint32_t h = 0; h < 65536; ++h) t[h] = f16_to_f32(static_cast<uint16_t>(h));
    return t;
  }();
  return table.data();
}

}  // namespace ingot::kernels
