#include "server/random_id.h"

#include <random>

namespace ingot::server {

std::string random_id(std::string_view prefix, size_t length) {
  static constexpr std::string_view kAlphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  // The largest multiple of the alphabet's size that a draw can reach:
  // draws at or above it are redrawn, so that no character is likelier.
  static constexpr uint32_t kFair =
      static_cast<uint32_t>((uint64_t{1} << 32) / kAlphabet.size() * kAlphabet.size());
  thread_local std::random_device entropy;
  std::string id(prefix);
  id.reserve(prefix.size() + length);
  while (id.size() < prefix.size() + length) {
    const uint32_t draw = entropy();
    if (draw < kFair) id += kAlphabet[draw % kAlphabet.size()];
  }
  return id;
}

}  // namespace ingot::server
