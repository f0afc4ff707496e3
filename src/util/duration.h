#pragma once
// Times given on the command line: "30s", "500ms", "2m", or a bare number
// of seconds ("30", "1.5").

#include <chrono>
#include <string_view>

#include "util/status.h"

namespace ingot {

Result<std::chrono::milliseconds> parse_duration(std::string_view text);

}  // namespace ingot
