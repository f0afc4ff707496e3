#include "tokenizer/wordpiece.h"

#include <algorithm>
#include <string>

#include "tokenizer/bert_normalizer.h"

namespace ingot::tokenizer {

void WordPieceEncoder::encode(std::string_view text, std::vector<int32_t>& out) const {
  for (const std::string& word : bert_words(text)) encode_word(word, out);
}

void WordPieceEncoder::encode_word(std::string_view word, std::vector<int32_t>& out) const {
  const std::string marked = "\xE2\x96\x81" + std::string(word);
  const size_t first_new = out.size();
  for (size_t begin = 0; begin < marked.size();) {
    size_t longest_end = std::min(marked.size(), begin + vocab_->max_token_length());
    int32_t id = kNoToken;
    size_t end = longest_end;
    for (; end > begin; --end) {
      id = vocab_->find(std::string_view(marked).substr(begin, end - begin));
      if (id != kNoToken) break;
    }
    if (id == kNoToken) {  // uncoverable: the whole word is unknown
      out.resize(first_new);
      break;
    }
    out.push_back(id);
    begin = end;
  }
  int32_t unknown = vocab_->special_ids().unk;
  if (out.size() == first_new && unknown != kNoToken) out.push_back(unknown);
}

}  // namespace ingot::tokenizer
