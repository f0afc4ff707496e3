#pragma once
// Where the weights live after load. Every matrix the kernels stream moves
// into one huge-page arena: decode reads each weight once per step, and
// over 4 KiB file pages every few KiB of weights cost a TLB miss and a page
// walk. The types the active path reads interleaved move interleaved; the
// rest move as they are. A model too large for the machine's memory stays
// in its file map, where the kernel can page it, and so does every model
// with INGOT_KEEP_WEIGHTS_MAPPED=1 (processes serving one file then share
// its page cache).

#include <cstddef>
#include <cstdint>
#include <optional>

#include "model/weights.h"

namespace ingot::model {

// Whether copying `arena_bytes` of weights leaves room for the rest (KV
// cache, activations, other programs): at most three quarters of the
// memory available. An unknown amount (no /proc/meminfo) allows the copy.
bool arena_fits(size_t arena_bytes, std::optional<uint64_t> available_bytes);

void move_matrices_to_arena(ModelWeights& weights);

}  // namespace ingot::model
