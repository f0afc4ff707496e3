#include "kernels/kernel_table.h"

#include <atomic>

#include "kernels/interleave.h"

namespace ingot::kernels {
namespace {

// Each path starts from the scalar table and from the simpler path of its
// family, so an entry it lacks keeps the best kernel below it. Only paths
// this CPU runs are filled: filling may itself use the path's instructions.
KernelTable build_table(Isa isa) {
  KernelTable t;
  t.isa = isa;
  add_scalar_kernels(t);
  switch (isa) {
#if defined(__x86_64__)
    case Isa::kAvx512:
      add_avx2_kernels(t);
      add_avx512_kernels(t);
      break;
    case Isa::kAvxVnni:
      add_avx2_kernels(t);
      add_avxvnni_kernels(t);
      break;
    case Isa::kAvx2:
      add_avx2_kernels(t);
      break;
#elif defined(__aarch64__)
    case Isa::kNeon:
      add_neon_kernels(t);
      break;
#endif
    default:
      break;
  }
  return t;
}

struct Tables {
  Tables() {
    for (Isa isa : kAllIsas) {
      const auto i = static_cast<size_t>(isa);
      available[i] = isa_available(isa);
      if (available[i]) by_isa[i] = build_table(isa);
      if (available[i]) best = &by_isa[i];  // kAllIsas lists each family simplest first
    }
  }
  std::array<KernelTable, std::size(kAllIsas)> by_isa;
  std::array<bool, std::size(kAllIsas)> available{};
  const KernelTable* best = nullptr;
};

const Tables& tables() {
  static const Tables built;
  return built;
}

std::atomic<const KernelTable*> forced{nullptr};

}  // namespace

bool KernelTable::interleaves(ElementType weight_type) const {
  return interleave_row != nullptr && interleaving[slot(weight_type)] != Interleaving::kNone;
}

bool KernelTable::interleaves(ElementType weight_type, int64_t cols) const {
  if (!interleaves(weight_type)) return false;
  const bool whole_groups = interleaved_groups(cols) * kGroupBlocks * kQK == cols;
  return whole_groups || interleaving[slot(weight_type)] == Interleaving::kEveryMatrix;
}

InterleaveRowFn KernelTable::interleave_row_for(ElementType packed_type) const {
  const bool operand = packed_type == ElementType::kQ8_0 || packed_type == ElementType::kQ8_K;
  return operand ? interleave_row : nullptr;
}

const KernelTable& active_kernels() {
  const KernelTable* table = forced.load(std::memory_order_relaxed);
  return table != nullptr ? *table : *tables().best;
}

const KernelTable* kernel_table(Isa isa) {
  const auto i = static_cast<size_t>(isa);
  return tables().available[i] ? &tables().by_isa[i] : nullptr;
}

Isa active_isa() {
  return active_kernels().isa;
}

void set_isa_override(std::optional<Isa> isa) {
  forced.store(isa ? kernel_table(*isa) : nullptr, std::memory_order_relaxed);
}

void add_path_lookups(KernelTable& t, const PathLookups& path) {
  for (uint32_t id = 0; id < KernelTable::kTypeSlots; ++id) {
    const std::optional<ElementType> type = element_type_from_id(id);
    if (!type) continue;
    if (TileKernel k = path.tile ? path.tile(*type) : nullptr) t.tiles[id] = k;
    if (PackRowFn p = path.pack_row ? path.pack_row(*type) : nullptr) t.packers[id] = p;
    if (WidenKeysFn w = path.widen_keys ? path.widen_keys(*type) : nullptr) {
      t.key_wideners[id] = w;
    }
    if (WidenValuesFn w = path.widen_values ? path.widen_values(*type) : nullptr) {
      t.value_wideners[id] = w;
    }
  }
}

}  // namespace ingot::kernels
