// The `ingot` binary: a thin dispatcher over one file per subcommand.

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <string>

#include "cli/commands.h"
#include "kernels/dispatch.h"
#include "util/logging.h"

int main(int argc, char** argv) {
  CLI::App app{"ingot: a local LLM inference server with an OpenAI-compatible API"};
  app.require_subcommand(1);
  // `ingot serve --log-level warn` reads as naturally as `ingot --log-level
  // warn serve`: options of ingot itself may follow the subcommand (its
  // subcommands inherit this).
  app.fallthrough();
  app.set_help_all_flag("--help-all", "Show help for every subcommand");
  std::string log_level = "warn";
  CLI::Option* log_level_option =
      app.add_option("--log-level", log_level,
                     "trace, debug, info, warn, error or off (default: info for serve, warn "
                     "for the other commands)");

  std::string isa;
  CLI::Option* isa_option =
      app.add_option("--isa", isa,
                     "Kernels to run: scalar, avx2, avxvnni, avx512 or neon, at most "
                     "what the CPU has (default: the best it "
                     "has; also INGOT_ISA)");

  int exit_code = 0;
  for (ingot::cli::CommandRegistrar registrar : {
           &ingot::cli::register_version,
           &ingot::cli::register_doctor,
           &ingot::cli::register_tokenize,
           &ingot::cli::register_run,
           &ingot::cli::register_embed,
           &ingot::cli::register_bench,
           &ingot::cli::register_template,
           &ingot::cli::register_serve,
           &ingot::cli::register_chat,
       }) {
    registrar(app, exit_code);
  }

  app.parse_complete_callback([&] {
    // A server's operator wants its access log (one line per request, at
    // info) without asking; the interactive commands stay quiet.
    CLI::App* serve = app.get_subcommand("serve");
    if (log_level_option->count() == 0 && serve->parsed()) log_level = "info";
    ingot::Status status = ingot::setup_logging(log_level);
    if (!status.ok()) throw CLI::ValidationError("--log-level", status.error().message());
    if (isa_option->count() == 0) {
      if (const char* env = std::getenv("INGOT_ISA"); env != nullptr && *env != '\0') isa = env;
    }
    if (!isa.empty()) {
      status = ingot::kernels::select_isa(isa);
      if (!status.ok()) throw CLI::ValidationError("--isa", status.error().message());
    }
  });

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  return exit_code;
}
