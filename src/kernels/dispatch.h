#pragma once
// The one place that chooses between instruction-set paths. Each path
// provides, per weight type, a tile kernel (a block of output rows times a
// block of tokens) and, per packed type, an activation packer; a path that
// lacks one falls back to the next simpler path, down to the scalar
// reference, so every type works on every CPU.

#include <cstdint>
#include <optional>
#include <string_view>

#include "kernels/element_type.h"
#include "kernels/matmul.h"
#include "util/status.h"

namespace ingot::kernels {

enum class Isa {
  kScalar,
  kAvx2,    // AVX2 + FMA + F16C
  kAvx512,  // AVX-512 F/BW/VL/DQ + VNNI
};

std::string_view isa_name(Isa isa);

// Whether this CPU can run the path.
bool isa_available(Isa isa);

// The path matmul uses: the best available, unless overridden.
Isa active_isa();

// Forces a path (tests and benchmarks compare paths on one machine);
// nullopt returns to the best available. Must not race with a matmul.
void set_isa_override(std::optional<Isa> isa);
// Forces the path named `name` (scalar, avx2, avx512: INGOT_ISA, --isa)
// when this CPU can run it; else an error saying which it can.
Status select_isa(std::string_view name);

struct TileRange {
  int64_t row_begin, row_end;  // weight rows = output features
  int64_t tok_begin, tok_end;  // activation rows = tokens
};

// y[t * y_stride + r] = dot(weight row r, packed activation row t) over the range.
using TileKernel = void (*)(const WeightMatrix& w, const PackedActivations& x, TileRange range,
                            float* y, int64_t y_stride);

TileKernel tile_kernel(Isa isa, ElementType weight_type);
PackRowFn pack_row_fn(Isa isa, ElementType packed_type);
// Only the AVX-512 path has kernels for interleaved weights, so only it
// interleaves activations (packed as Q8_0 or Q8_K); nullptr elsewhere.
InterleaveRowFn interleave_row_fn(Isa isa, ElementType packed_type);

// What each path provides (nullptr: not provided); one per *_isa.cpp file.
TileKernel scalar_tile_kernel(ElementType weight_type);
PackRowFn scalar_pack_row(ElementType packed_type);
TileKernel avx2_tile_kernel(ElementType weight_type);
PackRowFn avx2_pack_row(ElementType packed_type);
TileKernel avx512_tile_kernel(ElementType weight_type);
PackRowFn avx512_pack_row(ElementType packed_type);

}  // namespace ingot::kernels
