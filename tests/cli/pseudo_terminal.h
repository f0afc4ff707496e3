#pragma once
// Runs a built binary on a pseudo-terminal, as a person at a keyboard
// would: type lines, press Ctrl-C (the terminal turns it into SIGINT), and
// read the screen until some text appears. Reads block on the terminal;
// nothing waits on a clock.

#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>
#include <vector>

namespace ingot::testing {

class PseudoTerminal {
 public:
  explicit PseudoTerminal(const std::vector<std::string>& argv) {
    pid_ = forkpty(&master_, nullptr, nullptr, nullptr);
    if (pid_ == 0) {
      std::vector<char*> args;
      for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
      args.push_back(nullptr);
      execv(args[0], args.data());
      _exit(127);
    }
  }
  ~PseudoTerminal() {
    if (pid_ > 0 && !exited_) {
      kill(pid_, SIGKILL);
      wait_exit();
    }
    if (master_ >= 0) close(master_);
  }

  bool started() const { return pid_ > 0; }
  void type(const std::string& text) { (void)!write(master_, text.data(), text.size()); }
  void press_ctrl_c() { type("\x03"); }

  // Reads until `marker` appears in what was read since the last call, or
  // the program ends; returns that text.
  std::string read_until(const std::string& marker) {
    std::string seen;
    char buffer[512];
    while (seen.find(marker) == std::string::npos) {
      ssize_t n = read(master_, buffer, sizeof buffer);
      if (n <= 0) break;
      seen.append(buffer, static_cast<size_t>(n));
    }
    return seen;
  }

  // Reads whatever arrives next (at least one byte unless the program ended).
  std::string read_some() {
    char buffer[512];
    ssize_t n = read(master_, buffer, sizeof buffer);
    return n > 0 ? std::string(buffer, static_cast<size_t>(n)) : std::string();
  }

  int wait_exit() {
    int status = 0;
    waitpid(pid_, &status, 0);
    exited_ = true;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

 private:
  int master_ = -1;
  pid_t pid_ = -1;
  bool exited_ = false;
};

}  // namespace ingot::testing
