#include "kernels/ops_dispatch.h"

#include <cstdlib>
#include <cstring>

#include "kernels/cpu_features.h"

namespace ingot::kernels {
namespace {

bool scalar_forced() {
  const char* value = std::getenv("INGOT_SCALAR_OPS");
  return value != nullptr && std::strcmp(value, "1") == 0;
}

bool cpu_has_avx512() {
  // The vector ops use F, BW, VL (masked 16-bit loads) and F16C conversions.
  const CpuFeatures& cpu = cpu_features();
  return cpu.avx512f && cpu.avx512bw && cpu.avx512vl && cpu.f16c;
}

bool cpu_has_avx2() {
  const CpuFeatures& cpu = cpu_features();
  return cpu.avx2 && cpu.fma && cpu.f16c;
}

}  // namespace

bool use_avx2() {
  static const bool enabled = cpu_has_avx2() && !scalar_forced();
  return enabled;
}

bool use_avx512() {
  static const bool enabled = cpu_has_avx512() && !scalar_forced();
  return enabled;
}

}  // namespace ingot::kernels
