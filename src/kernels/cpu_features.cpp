#include "kernels/cpu_features.h"

#include <cstdint>

#if defined(__x86_64__)
#include <cpuid.h>
#elif defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#elif defined(__aarch64__) && defined(__APPLE__)
#include <sys/sysctl.h>
#endif

namespace ingot::kernels {
namespace {

#if defined(__x86_64__)

uint64_t xgetbv0() {
  uint32_t eax, edx;
  __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
  return (static_cast<uint64_t>(edx) << 32) | eax;
}

bool bit(uint32_t reg, int n) {
  return (reg >> n) & 1;
}

CpuFeatures detect() {
  CpuFeatures f;
  uint32_t eax, ebx, ecx, edx;
  if (__get_cpuid_max(0, nullptr) < 7 || !__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return f;
  const bool osxsave = bit(ecx, 27);
  const bool fma = bit(ecx, 12), f16c = bit(ecx, 29);
  if (!osxsave) return f;
  const uint64_t xcr0 = xgetbv0();
  const bool ymm_saved = (xcr0 & 0x6) == 0x6;                 // SSE and AVX state
  const bool zmm_saved = ymm_saved && (xcr0 & 0xe0) == 0xe0;  // opmask, ZMM_Hi256, Hi16_ZMM
  if (!ymm_saved) return f;
  f.fma = fma;
  f.f16c = f16c;
  uint32_t ebx7 = 0, ecx7 = 0, edx7 = 0, eax7_1 = 0;
  __cpuid_count(7, 0, eax, ebx7, ecx7, edx7);
  __cpuid_count(7, 1, eax7_1, ebx, ecx, edx);
  f.avx2 = bit(ebx7, 5);
  f.bmi2 = bit(ebx7, 8);
  f.avx_vnni = bit(eax7_1, 4);
  if (zmm_saved) {
    f.avx512f = bit(ebx7, 16);
    f.avx512dq = bit(ebx7, 17);
    f.avx512bw = bit(ebx7, 30);
    f.avx512vl = bit(ebx7, 31);
    f.avx512_vnni = bit(ecx7, 11);
    f.avx512_bf16 = bit(eax7_1, 5);
  }
  return f;
}

#elif defined(__aarch64__) && defined(__linux__)

// Bits of AT_HWCAP and AT_HWCAP2 (the kernel's uapi asm/hwcap.h), spelled
// out so that older C libraries' headers need not define them.
constexpr unsigned long kHwcapAsimd = 1ul << 1;
constexpr unsigned long kHwcapAsimdDp = 1ul << 20;
constexpr unsigned long kHwcap2I8mm = 1ul << 13;

CpuFeatures detect() {
  CpuFeatures f;
  const unsigned long hwcap = getauxval(AT_HWCAP), hwcap2 = getauxval(AT_HWCAP2);
  f.neon = (hwcap & kHwcapAsimd) != 0;
  f.dotprod = f.neon && (hwcap & kHwcapAsimdDp) != 0;
  f.i8mm = f.dotprod && (hwcap2 & kHwcap2I8mm) != 0;
  return f;
}

#elif defined(__aarch64__) && defined(__APPLE__)

bool sysctl_flag(const char* name) {
  int value = 0;
  size_t size = sizeof(value);
  return sysctlbyname(name, &value, &size, nullptr, 0) == 0 && value != 0;
}

CpuFeatures detect() {
  CpuFeatures f;
  f.neon = true;
  f.dotprod = sysctl_flag("hw.optional.arm.FEAT_DotProd");
  f.i8mm = f.dotprod && sysctl_flag("hw.optional.arm.FEAT_I8MM");
  return f;
}

#else

CpuFeatures detect() {
  return {};
}

#endif

}  // namespace

const CpuFeatures& cpu_features() {
  static const CpuFeatures features = detect();
  return features;
}

}  // namespace ingot::kernels
