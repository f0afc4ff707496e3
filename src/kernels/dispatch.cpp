#include "kernels/dispatch.h"

#include <string>

#include "kernels/cpu_features.h"

namespace ingot::kernels {

std::string_view isa_name(Isa isa) {
  switch (isa) {
    case Isa::kScalar:
      return "scalar";
    case Isa::kAvx2:
      return "avx2";
    case Isa::kAvxVnni:
      return "avxvnni";
    case Isa::kAvx512:
      return "avx512";
    case Isa::kNeon:
      return "neon";
  }
  return "?";
}

bool isa_available(Isa isa) {
  const CpuFeatures& f = cpu_features();
  switch (isa) {
    case Isa::kScalar:
      return true;
    case Isa::kAvx2:
      // Every flag the path is compiled with (cmake/IngotTargets.cmake);
      // scripts/check-isa-objects holds the objects to it.
      return f.avx2 && f.fma && f.f16c && f.bmi2;
    case Isa::kAvxVnni:
      return isa_available(Isa::kAvx2) && f.avx_vnni;
    case Isa::kAvx512:
      return isa_available(Isa::kAvx2) && f.avx512f && f.avx512bw && f.avx512vl && f.avx512dq &&
             f.avx512_vnni;
    case Isa::kNeon:
      return f.neon;
  }
  return false;
}

Status select_isa(std::string_view name) {
  std::string available;
  for (Isa isa : kAllIsas) {
    if (!isa_available(isa)) continue;
    if (isa_name(isa) == name) {
      set_isa_override(isa);
      return {};
    }
    available += (available.empty() ? "" : ", ") + std::string(isa_name(isa));
  }
  return invalid_argument("no '" + std::string(name) + "' kernels for this CPU; it runs " +
                          available);
}

}  // namespace ingot::kernels
