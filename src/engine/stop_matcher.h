#pragma once
// Finds stop strings in streamed text. Text that could still turn into a
// stop string is held back, so a stop string split across tokens is found
// and none of it is ever emitted.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ingot::engine {

class StopMatcher {
 public:
  explicit StopMatcher(std::vector<std::string> stops);

  struct Output {
    std::string text;  // safe to emit now
    bool stopped = false;
  };

  // Appends newly decoded text. Once stopped, further calls return nothing.
  Output push(std::string_view text);
  // At the end of generation: whatever was held back, since no stop came.
  std::string flush();

  bool stopped() const { return stopped_; }
  // The stop string that matched, when one did.
  const std::optional<std::string>& matched() const { return matched_; }

 private:
  size_t held_back_length() const;

  std::vector<std::string> stops_;
  std::string pending_;
  bool stopped_ = false;
  std::optional<std::string> matched_;
};

}  // namespace ingot::engine
