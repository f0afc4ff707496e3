#include "tokenizer/streaming_decoder.h"

#include "tokenizer/utf8_repair.h"
#include "util/utf8.h"

namespace ingot::tokenizer {

StreamingDecoder::StreamingDecoder(const Tokenizer& tokenizer, DecodeOptions options)
    : detokenizer_(&tokenizer.detokenizer()),
      options_(options),
      state_(detokenizer_->start(options)) {}

std::string StreamingDecoder::push(int32_t id) {
  detokenizer_->append(id, options_, state_, pending_);
  size_t complete = utf8::complete_prefix_length(pending_);
  std::string ready = replace_invalid_utf8(std::string_view(pending_).substr(0, complete));
  pending_.erase(0, complete);
  return ready;
}

std::string StreamingDecoder::flush() {
  std::string rest = replace_invalid_utf8(pending_);
  pending_.clear();
  state_ = detokenizer_->start(options_);
  return rest;
}

}  // namespace ingot::tokenizer
