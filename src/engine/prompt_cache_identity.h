#pragma once
// What a prompt-cache file on disk is valid for: the model file, the KV
// cache's element type and its block layout. A block written under any
// other identity is never read.

#include <cstdint>

#include "model/kv_cache.h"
#include "model/model.h"

namespace ingot::engine {

uint64_t prompt_cache_identity(const model::Model& model, const model::KvCache& cache);

}  // namespace ingot::engine
