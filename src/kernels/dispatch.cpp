#include "kernels/dispatch.h"

#include <atomic>
#include <string>

#include "kernels/cpu_features.h"
#include "kernels/matmul_kernels_avx512.h"

namespace ingot::kernels {
namespace {

Isa best_isa() {
  if (isa_available(Isa::kAvx512)) return Isa::kAvx512;
  if (isa_available(Isa::kAvx2)) return Isa::kAvx2;
  return Isa::kScalar;
}

// -1: no override; otherwise the Isa's value.
std::atomic<int> isa_override{-1};

Isa simpler(Isa isa) {
  return isa == Isa::kAvx512 ? Isa::kAvx2 : Isa::kScalar;
}

}  // namespace

std::string_view isa_name(Isa isa) {
  switch (isa) {
    case Isa::kScalar:
      return "scalar";
    case Isa::kAvx2:
      return "avx2";
    case Isa::kAvx512:
      return "avx512";
  }
  return "?";
}

bool isa_available(Isa isa) {
  const CpuFeatures& f = cpu_features();
  switch (isa) {
    case Isa::kScalar:
      return true;
    case Isa::kAvx2:
      return f.avx2 && f.fma && f.f16c;
    case Isa::kAvx512:
      return isa_available(Isa::kAvx2) && f.avx512f && f.avx512bw && f.avx512vl && f.avx512dq &&
             f.avx512_vnni;
  }
  return false;
}

Isa active_isa() {
  static const Isa best = best_isa();
  const int forced = isa_override.load(std::memory_order_relaxed);
  return forced < 0 ? best : static_cast<Isa>(forced);
}

void set_isa_override(std::optional<Isa> isa) {
  isa_override.store(isa ? static_cast<int>(*isa) : -1, std::memory_order_relaxed);
}

Status select_isa(std::string_view name) {
  std::string available;
  for (Isa isa : {Isa::kScalar, Isa::kAvx2, Isa::kAvx512}) {
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

TileKernel tile_kernel(Isa isa, ElementType weight_type) {
  for (;; isa = simpler(isa)) {
    TileKernel k = isa == Isa::kAvx512 ? avx512_tile_kernel(weight_type)
                   : isa == Isa::kAvx2 ? avx2_tile_kernel(weight_type)
                                       : scalar_tile_kernel(weight_type);
    if (k != nullptr || isa == Isa::kScalar) return k;
  }
}

InterleaveRowFn interleave_row_fn(Isa isa, ElementType packed_type) {
  const bool interleaved_operand =
      packed_type == ElementType::kQ8_0 || packed_type == ElementType::kQ8_K;
  return isa == Isa::kAvx512 && interleaved_operand ? &interleave_activation_row_avx512 : nullptr;
}

PackRowFn pack_row_fn(Isa isa, ElementType packed_type) {
  for (;; isa = simpler(isa)) {
    PackRowFn p = isa == Isa::kAvx512 ? avx512_pack_row(packed_type)
                  : isa == Isa::kAvx2 ? avx2_pack_row(packed_type)
                                      : scalar_pack_row(packed_type);
    if (p != nullptr || isa == Isa::kScalar) return p;
  }
}

}  // namespace ingot::kernels
