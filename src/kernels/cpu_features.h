#pragma once
// What the CPU we run on can execute, read once from CPUID (and XGETBV:
// the OS must also save the wider registers).

namespace ingot::kernels {

struct CpuFeatures {
  bool avx2 = false;
  bool fma = false;
  bool f16c = false;
  bool avx_vnni = false;
  bool avx512f = false;
  bool avx512bw = false;
  bool avx512vl = false;
  bool avx512dq = false;
  bool avx512_vnni = false;
  bool avx512_bf16 = false;
};

const CpuFeatures& cpu_features();

}  // namespace ingot::kernels
