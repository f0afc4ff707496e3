#pragma once
// Identifiers a client may not guess: every character is drawn from the
// operating system's entropy (std::random_device), not from a seeded
// generator whose later outputs its earlier ones give away. A stored
// response is read back by its id alone, so the id is the key to it.

#include <cstddef>
#include <string>
#include <string_view>

namespace ingot::server {

// `prefix` and `length` letters and digits (about 5.95 bits each).
std::string random_id(std::string_view prefix, size_t length);

}  // namespace ingot::server
