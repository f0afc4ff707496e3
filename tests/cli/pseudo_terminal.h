#pragma once
// Runs a built binary on a pseudo-terminal, as a person at a keyboard
// would: type lines, press Ctrl-C (the terminal turns it into SIGINT), and
// read the screen until some text appears. Reads block on the terminal;
// the only clock is a generous liveness bound, so that a program that
// stops answering fails the test with its screen instead of hanging CI.

#include <poll.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>
#include <utility>
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
      waitpid(pid_, nullptr, 0);
    }
    if (master_ >= 0) close(master_);
  }

  bool started() const { return pid_ > 0; }
  void type(const std::string& text) { (void)!write(master_, text.data(), text.size()); }
  void press_ctrl_c() { type("\x03"); }

  // Reads until `marker` appears, or the program ends; returns the text up
  // to and including the marker. What arrived after it is kept for the next
  // read, since one read of the terminal can hold several lines.
  std::string read_until(const std::string& marker) {
    size_t at;
    while ((at = pending_.find(marker)) == std::string::npos && fill()) {
    }
    size_t end = at == std::string::npos ? pending_.size() : at + marker.size();
    std::string text = pending_.substr(0, end);
    pending_.erase(0, end);
    return text;
  }

  // Returns whatever has arrived and not been read (waiting for at least one
  // byte unless the program ended).
  std::string read_some() {
    if (pending_.empty()) fill();
    return std::exchange(pending_, {});
  }

  // Everything read so far, for failure messages.
  const std::string& transcript() const { return transcript_; }
  bool stalled() const { return stalled_; }

  // Waits for the program to end; one that has stalled is killed first.
  int wait_exit() {
    bool open = true;
    while (open) open = fill();  // reads until the terminal closes
    if (stalled_) kill(pid_, SIGKILL);
    int status = 0;
    waitpid(pid_, &status, 0);
    exited_ = true;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

 private:
  // A program that prints nothing for this long has hung; the reader gives
  // up (and `stalled()` says so) rather than block forever.
  static constexpr int kLivenessBoundMs = 60'000;

  // Appends the next bytes from the terminal; false once it has closed or
  // the program has stalled.
  bool fill() {
    pollfd ready{master_, POLLIN, 0};
    if (poll(&ready, 1, kLivenessBoundMs) <= 0) {
      stalled_ = true;
      return false;
    }
    char buffer[512];
    ssize_t n = read(master_, buffer, sizeof buffer);
    if (n <= 0) return false;
    pending_.append(buffer, static_cast<size_t>(n));
    transcript_.append(buffer, static_cast<size_t>(n));
    return true;
  }

  std::string pending_;
  std::string transcript_;
  bool stalled_ = false;
  int master_ = -1;
  pid_t pid_ = -1;
  bool exited_ = false;
};

}  // namespace ingot::testing
