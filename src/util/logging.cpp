#include "util/logging.h"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <string>

namespace ingot {

Status setup_logging(std::string_view level) {
  spdlog::level::level_enum parsed = spdlog::level::from_str(std::string(level));
  if (parsed == spdlog::level::off && level != "off") {
    return invalid_argument("unknown log level '" + std::string(level) +
                            "' (use trace, debug, info, warn, error or off)");
  }
  auto logger = spdlog::get("ingot");
  if (!logger) logger = spdlog::stderr_color_mt("ingot");
  logger->set_pattern("%Y-%m-%dT%H:%M:%S.%e %^%l%$ %v");
  logger->set_level(parsed);
  spdlog::set_default_logger(logger);
  return {};
}

}  // namespace ingot
