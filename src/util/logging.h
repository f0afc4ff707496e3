#pragma once
// Process-wide logging set-up. Code logs through spdlog directly
// (spdlog::info, spdlog::warn, ...); this only configures the sink once.

#include <string_view>

#include "util/status.h"

namespace ingot {

// level: trace, debug, info, warn, error, off. Logs go to stderr so that
// stdout stays clean for command output (`ingot run`, `ingot tokenize`).
Status setup_logging(std::string_view level);

}  // namespace ingot
