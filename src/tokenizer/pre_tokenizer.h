#pragma once
// Pre-tokenizer presets for byte-level BPE, chosen by `tokenizer.ggml.pre`:
// the regexes that cut text into words before merges run, applied one after
// the other (each cuts the pieces the previous one left), as llama.cpp does.

#include <string>
#include <string_view>
#include <vector>

#include "tokenizer/split_regex.h"
#include "util/status.h"

namespace ingot::tokenizer {

class PreTokenizer {
 public:
  // An unknown name is an error naming it; there is no silent fallback.
  static Result<PreTokenizer> create(std::string_view name);

  // Cuts `text` (valid UTF-8) into words: views into `text`, in order,
  // covering it exactly.
  std::vector<std::string_view> split(std::string_view text) const;

  const std::string& name() const { return name_; }
  // Llama 3 style: a word that is itself a token is taken whole, unmerged.
  bool ignore_merges() const { return ignore_merges_; }

 private:
  std::string name_;
  std::vector<SplitRegex> regexes_;
  bool ignore_merges_ = false;
};

// The names create() accepts, for messages and tests.
std::vector<std::string_view> pre_tokenizer_names();

}  // namespace ingot::tokenizer
