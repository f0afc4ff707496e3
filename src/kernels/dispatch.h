#pragma once
// The instruction-set paths and the choice between them. Each path's
// kernels are gathered in one table (kernels/kernel_table.h); this says
// which paths exist, which this CPU runs and which is in use.

#include <cstdint>
#include <optional>
#include <string_view>

#include "kernels/element_type.h"
#include "kernels/matmul.h"
#include "kernels/packed_activations.h"
#include "util/status.h"

namespace ingot::kernels {

enum class Isa {
  kScalar,
  kAvx2,     // AVX2 + FMA + F16C
  kAvxVnni,  // the same with AVX-VNNI (vpdpbusd on 256 bits)
  kAvx512,   // AVX-512 F/BW/VL/DQ + VNNI
  kNeon,     // AArch64 Advanced SIMD; its dot-product (sdot) and matrix (smmla)
             // kernels are taken where the processor has them
};

// Every path, in the order they are listed to users.
inline constexpr Isa kAllIsas[] = {Isa::kScalar, Isa::kAvx2, Isa::kAvxVnni, Isa::kAvx512,
                                   Isa::kNeon};

std::string_view isa_name(Isa isa);

// Whether this CPU can run the path.
bool isa_available(Isa isa);

// The path matmul uses: the best available, unless overridden.
Isa active_isa();

// Forces a path (tests and benchmarks compare paths on one machine);
// nullopt returns to the best available. Must not race with a matmul.
void set_isa_override(std::optional<Isa> isa);
// Forces the path named `name` (scalar, avx2, avxvnni, avx512, neon: INGOT_ISA,
// --isa)
// when this CPU can run it; else an error saying which it can.
Status select_isa(std::string_view name);

struct TileRange {
  int64_t row_begin, row_end;  // weight rows = output features
  int64_t tok_begin, tok_end;  // activation rows = tokens
};

// y[t * y_stride + r] = dot(weight row r, packed activation row t) over the range.
using TileKernel = void (*)(const WeightMatrix& w, const PackedActivations& x, TileRange range,
                            float* y, int64_t y_stride);

// The scalar reference's kernels (matmul_scalar.cpp); nullptr: none.
TileKernel scalar_tile_kernel(ElementType weight_type);
PackRowFn scalar_pack_row(ElementType packed_type);

}  // namespace ingot::kernels
