#pragma once
// --cache-type-k and --cache-type-v (llama-server's names), shared by
// the commands that make a KV cache.

#include <CLI/CLI.hpp>
#include <string>

#include "kernels/element_type.h"
#include "model/kv_cache.h"

namespace ingot::cli {

struct CacheTypeNames {
  std::string keys = "f16";
  std::string values = "f16";
};

inline void add_cache_type_options(CLI::App& command, CacheTypeNames& names) {
  command
      .add_option("--cache-type-k", names.keys,
                  "Element type of the cached keys: f16, q8_0 or q4_0")
      ->check(CLI::IsMember({"f16", "q8_0", "q4_0"}))
      ->capture_default_str();
  command
      .add_option("--cache-type-v", names.values,
                  "Element type of the cached values: f16, q8_0 or q4_0")
      ->check(CLI::IsMember({"f16", "q8_0", "q4_0"}))
      ->capture_default_str();
}

inline kernels::ElementType cache_element_type(const std::string& name) {
  if (name == "q8_0") return kernels::ElementType::kQ8_0;
  if (name == "q4_0") return kernels::ElementType::kQ4_0;
  return kernels::ElementType::kF16;
}

inline model::KvCache::Types cache_types(const CacheTypeNames& names) {
  return {cache_element_type(names.keys), cache_element_type(names.values)};
}

}  // namespace ingot::cli
