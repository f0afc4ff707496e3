#pragma once
// How much memory the machine can still hand out without swapping, for
// deciding whether a model's weights may be copied out of their file map.

#include <cstdint>
#include <optional>
#include <string_view>

namespace ingot {

// MemAvailable from /proc/meminfo, in bytes; nullopt where it is unknown.
std::optional<uint64_t> available_memory_bytes();

// MemAvailable out of /proc/meminfo's text ("MemAvailable: 123 kB").
std::optional<uint64_t> parse_mem_available(std::string_view meminfo);

}  // namespace ingot
