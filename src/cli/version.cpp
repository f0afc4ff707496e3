#include <cstdio>

#include "cli/commands.h"

namespace ingot::cli {

void register_version(CLI::App& app, int& exit_code) {
  CLI::App* command = app.add_subcommand("version", "Print ingot's version");
  command->callback([&exit_code] {
    std::printf("ingot %s\n", INGOT_VERSION);
    exit_code = 0;
  });
}

}  // namespace ingot::cli
