#pragma once
// What the CPU we run on can execute, read once: on x86 from CPUID (and
// XGETBV: the OS must also save the wider registers), on AArch64 from what
// the kernel reports (Linux's auxiliary vector, macOS's sysctl). Elsewhere
// nothing is claimed and the scalar path runs.

namespace ingot::kernels {

struct CpuFeatures {
  bool avx2 = false;
  bool fma = false;
  bool f16c = false;
  bool bmi2 = false;
  bool avx_vnni = false;
  bool avx512f = false;
  bool avx512bw = false;
  bool avx512vl = false;
  bool avx512dq = false;
  bool avx512_vnni = false;
  bool avx512_bf16 = false;
  bool neon = false;     // AArch64 Advanced SIMD (every AArch64 processor)
  bool dotprod = false;  // SDOT/UDOT (Armv8.2 DotProd)
  bool i8mm = false;     // SMMLA (Armv8.6 Int8 matrix multiply)
};

const CpuFeatures& cpu_features();

}  // namespace ingot::kernels
