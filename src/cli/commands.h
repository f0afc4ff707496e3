#pragma once
// Each subcommand of `ingot` lives in its own file and registers itself
// here. A handler returns the process exit code.

#include <CLI/CLI.hpp>
#include <functional>

namespace ingot::cli {

// Adds a subcommand to `app`; its callback stores the exit code in `exit_code`.
using CommandRegistrar = void (*)(CLI::App& app, int& exit_code);

void register_version(CLI::App& app, int& exit_code);
void register_doctor(CLI::App& app, int& exit_code);
void register_tokenize(CLI::App& app, int& exit_code);
void register_run(CLI::App& app, int& exit_code);
void register_embed(CLI::App& app, int& exit_code);
void register_bench(CLI::App& app, int& exit_code);
void register_template(CLI::App& app, int& exit_code);
void register_serve(CLI::App& app, int& exit_code);
void register_chat(CLI::App& app, int& exit_code);

}  // namespace ingot::cli
