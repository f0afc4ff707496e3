#include "engine/prompt_cache_identity.h"

#include <xxhash.h>

#include <algorithm>
#include <string_view>

namespace ingot::engine {
namespace {

// Samples of the weights: two files with the same header (a model
// re-quantized with the same recipe, a fine-tune of the same shape) differ
// in them. Reading the whole file would take seconds at start.
constexpr size_t kSamples = 64;
constexpr size_t kSampleBytes = 4096;
// Bumped when the layout of cached keys and values changes.
constexpr uint64_t kCacheFormat = 1;

}  // namespace

uint64_t prompt_cache_identity(const model::Model& model, const model::KvCache& cache) {
  const gguf::GgufFile& file = model.file();
  const std::span<const uint8_t> bytes = file.bytes();
  XXH3_state_t* state = XXH3_createState();
  XXH3_64bits_reset(state);
  const uint64_t layout[] = {kCacheFormat, uint64_t(bytes.size()), uint64_t(cache.block_size()),
                             uint64_t(cache.block_bytes())};
  XXH3_64bits_update(state, layout, sizeof layout);
  for (kernels::ElementType type : {cache.types().keys, cache.types().values}) {
    const std::string_view name = kernels::element_type_name(type);
    XXH3_64bits_update(state, name.data(), name.size());
  }
  const size_t header = std::min<size_t>(file.data_offset(), bytes.size());
  XXH3_64bits_update(state, bytes.data(), header);
  const size_t data = bytes.size() - header;
  for (size_t i = 0; i < kSamples && data > 0; ++i) {
    const size_t at = header + data / kSamples * i;
    XXH3_64bits_update(state, bytes.data() + at, std::min(kSampleBytes, bytes.size() - at));
  }
  const uint64_t identity = XXH3_64bits_digest(state);
  XXH3_freeState(state);
  return identity;
}

}  // namespace ingot::engine
