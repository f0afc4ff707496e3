#include <algorithm>

#include "engine/slot.h"

// A diffusion request's canvases: each step's logits into the denoiser,
// and a finished canvas committed as one piece of the reply.

namespace ingot::engine {

bool Slot::take_canvas_step(float* logits, ThreadPool& pool, int64_t context_limit) {
  denoiser_->take_step(logits, pool);
  if (!denoiser_->done()) return false;
  return commit_canvas(context_limit);
}

// The canvas's argmax, up to its first end-of-generation token, a stop
// string or max_tokens, goes out as one event. A canvas that ends none of
// these is prefilled as the prefix of the next, which starts from the seed
// again as the reference's does, while a whole canvas still fits.
bool Slot::commit_canvas(int64_t context_limit) {
  const std::vector<int32_t> tokens(denoiser_->argmax().begin(), denoiser_->argmax().end());
  if (generated_ == 0) usage_.time_to_first_token_ms = ms_since(submitted_);
  TextEvent event;
  std::optional<FinishReason> reason;
  size_t taken = 0;
  for (; taken < tokens.size() && !reason; ++taken) {
    FinishReason ended;
    if (read_canvas_token(tokens[taken], event, ended)) reason = ended;
  }
  // The last canvas's event carries the text held back till the end too,
  // so that each canvas is one event.
  if (reason) take_held_text(event);
  if (!emit(std::move(event))) return true;
  if (reason) {
    finish(*reason);
    return true;
  }
  prompt_.insert(prompt_.end(), tokens.begin(), tokens.end());
  const auto after = int64_t(prompt_.size());
  if (after + canvas_length_ > context_limit) {
    finish(FinishReason::kLength);
    return true;
  }
  const sampling::DenoiserParams params = denoiser_->params();
  denoiser_.emplace(params, canvas_length_, n_vocab_);
  return false;
}

bool Slot::read_canvas_token(int32_t token, TextEvent& event, FinishReason& reason) {
  if (tokenizer_.is_end_of_generation(token)) {
    reason = FinishReason::kStop;
    return true;
  }
  ++generated_;
  std::string piece = tokenizer_.token_to_piece(token);
  unsent_tokens_.push_back({token, std::move(piece), 0.0f, {}, /*has_logprob=*/false});
  const bool stopped = add_text_of(token, event);
  if (splitter_ && splitter_->in_reasoning()) ++reasoning_tokens_;
  if (stopped) {
    reason = FinishReason::kStop;
    return true;
  }
  if (max_tokens_ >= 0 && generated_ >= max_tokens_) {
    reason = FinishReason::kLength;
    return true;
  }
  return false;
}

}  // namespace ingot::engine
