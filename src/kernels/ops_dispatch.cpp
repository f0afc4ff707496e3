#include "kernels/ops_dispatch.h"

#include <cstdlib>
#include <cstring>

namespace ingot::kernels {
namespace {

bool scalar_forced() {
  const char* value = std::getenv("INGOT_SCALAR_OPS");
  return value != nullptr && std::strcmp(value, "1") == 0;
}

bool cpu_has_avx512() {
  // The vector ops use F, BW, VL (masked 16-bit loads) and F16C conversions.
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512vl");
}

}  // namespace

bool use_avx512() {
  static const bool enabled = cpu_has_avx512() && !scalar_forced();
  return enabled;
}

}  // namespace ingot::kernels
