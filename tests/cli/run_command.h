#pragma once
// Runs a built binary as a user would, capturing its exit code, stdout and
// stderr (through temporary files, so neither pipe can fill and block).

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/shared_data.h"

extern char** environ;

namespace ingot::testing {

struct CommandResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

inline std::string read_whole_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// argv[0] is a path; the rest are passed as they are (no shell).
inline CommandResult run_command(const std::vector<std::string>& argv) {
  std::filesystem::path dir = temp_dir();
  std::string out_path = (dir / "stdout").string();
  std::string err_path = (dir / "stderr").string();
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  CommandResult result;
  pid_t pid = 0;
  int spawned = posix_spawn(&pid, argv[0].c_str(), &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) {
    result.err = "cannot start " + argv[0];
    return result;
  }
  int status = 0;
  waitpid(pid, &status, 0);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.out = read_whole_file(out_path);
  result.err = read_whole_file(err_path);
  return result;
}

inline std::string ingot_binary() {
  return (build_dir() / "ingot").string();
}

}  // namespace ingot::testing
