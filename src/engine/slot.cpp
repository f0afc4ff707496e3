#include "engine/slot.h"

#include <algorithm>
#include <bit>
#include <cstring>

namespace ingot::engine {
namespace {

bool same_adapters(const model::LoraSet& a, const model::LoraSet& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [](const model::LoraUse& x, const model::LoraUse& y) {
                      return x.adapter == y.adapter && x.scale == y.scale;
                    });
}

}  // namespace

// The adapters by identity (they live as long as the server) and their
// scales, in order.
uint64_t lora_prefix_seed(const model::LoraSet& lora) {
  std::vector<uint64_t> salt;
  for (const model::LoraUse& use : lora) {
    salt.push_back(reinterpret_cast<uintptr_t>(use.adapter));
    salt.push_back(std::bit_cast<uint32_t>(use.scale));
  }
  return model::KvCache::prefix_seed(salt);
}

size_t Slot::common_prefix(const std::vector<int32_t>& prompt, const model::LoraSet& lora) const {
  if (!same_adapters(lora, lora_)) return 0;
  auto [a, b] = std::mismatch(cached_.begin(), cached_.end(), prompt.begin(), prompt.end());
  return static_cast<size_t>(a - cached_.begin());
}

void Slot::start(std::shared_ptr<RequestState> state, GenerationRequest request, size_t reuse,
                 Clock::time_point submitted, sampling::grammar::TokenMasker* masker) {
  request_ = std::move(state);
  prompt_ = std::move(request.prompt);
  lora_ = std::move(request.lora);
  prefix_seed_ = lora_prefix_seed(lora_);
  // What the cache holds: the slot's own earlier tokens or blocks another
  // sequence computed, the prompt's first tokens either way.
  cached_.assign(prompt_.begin(), prompt_.begin() + static_cast<ptrdiff_t>(reuse));
  prefill_cursor_ = reuse;
  last_token_ = -1;
  max_tokens_ = request.max_tokens;
  generated_ = 0;
  usage_ = {};
  usage_.prompt_tokens = static_cast<int64_t>(prompt_.size());
  usage_.cached_tokens = static_cast<int64_t>(reuse);
  submitted_ = submitted;
  grammar_.reset();
  if (request.sampling.grammar && masker) {
    grammar_.emplace(request.sampling.grammar, request.sampling.grammar_triggers, *masker);
  }
  denoiser_.reset();
  if (request.canvas) denoiser_.emplace(*request.canvas, canvas_length_, n_vocab_);
  sampler_.emplace(std::move(request.sampling));
  tokenizer::DecodeOptions options;
  options.at_text_start = false;
  decoder_.emplace(tokenizer_, options);
  stop_.emplace(std::move(request.stop));
  splitter_.reset();
  if (request.reasoning) splitter_.emplace(*request.reasoning, request.prompt_opens_reasoning);
  reasoning_budget_ = request.reasoning_budget;
  reasoning_tokens_ = 0;
  pooled_.reset();
  if (request.pooling) {
    pooled_.emplace(*request.pooling, int64_t(prompt_.size()), rank_head_);
  }
  forced_.clear();
  next_forced_ = 0;
  unsent_tokens_.clear();
  prompt_logprobs_ = request.prompt_logprobs;
  prompt_scores_.clear();
  if (prompt_logprobs_ >= 0 && !prompt_.empty()) {
    prompt_scores_.push_back({prompt_[0],
                              tokenizer_.token_to_piece(prompt_[0]),
                              0.0f,
                              {},
                              /*has_logprob=*/false});
  }
}

std::span<const int32_t> Slot::next_prefill(size_t budget) const {
  size_t n = std::min(budget, prompt_.size() - prefill_cursor_);
  return {prompt_.data() + prefill_cursor_, n};
}

void Slot::committed_prefill(size_t n) {
  cached_.insert(cached_.end(), prompt_.begin() + static_cast<ptrdiff_t>(prefill_cursor_),
                 prompt_.begin() + static_cast<ptrdiff_t>(prefill_cursor_ + n));
  prefill_cursor_ += n;
}

void Slot::skip_cached_prefill(size_t n) {
  committed_prefill(n);
  usage_.cached_tokens += static_cast<int64_t>(n);
}

void Slot::draw(const float* logits, int64_t n_vocab) {
  if (next_forced_ < forced_.size()) {
    drawn_ = sampling::SampledToken{forced_[next_forced_++], 0.0f, {}};
    return;
  }
  scratch_logits_.resize(static_cast<size_t>(n_vocab));
  std::memcpy(scratch_logits_.data(), logits, sizeof(float) * static_cast<size_t>(n_vocab));
  // The grammar masks first, so penalties and truncation see only the
  // tokens it allows.
  if (grammar_) {
    if (Status masked = grammar_->mask(scratch_logits_); !masked.ok()) {
      drawn_ = std::move(masked.error());
      return;
    }
  }
  drawn_ = sampler_->sample(scratch_logits_);
}

void Slot::score_prompt_row(const float* logits, int64_t n_vocab) {
  if (prompt_scores_.empty() || prompt_scores_.size() >= prompt_.size()) return;
  int32_t id = prompt_[prompt_scores_.size()];
  sampling::ScoredToken scored =
      sampling::score_token(std::span<const float>(logits, static_cast<size_t>(n_vocab)), id,
                            prompt_logprobs_, score_scratch_);
  prompt_scores_.push_back(
      {id, tokenizer_.token_to_piece(id), scored.logprob, std::move(scored.top)});
}

void Slot::pool_hidden(const float* rows, int64_t n, int64_t n_embd, int64_t first) {
  if (pooled_) pooled_->add(rows, n, n_embd, first);
}

void Slot::prompt_done() {
  if (prompt_logprobs_ >= 0) {
    TextEvent scores;
    scores.prompt = true;
    scores.tokens = std::move(prompt_scores_);
    prompt_scores_.clear();
    if (!request_->events.push(std::move(scores))) return finish(FinishReason::kCancelled);
  }
  if (!samples_after_prompt()) finish(FinishReason::kLength);
}

bool Slot::take_drawn(int64_t context_limit) {
  if (!drawn_.ok()) {
    fail(std::move(drawn_.error()));
    return true;
  }
  sampling::SampledToken sampled = std::move(*drawn_);
  if (generated_ == 0) usage_.time_to_first_token_ms = ms_since(submitted_);
  ++generated_;
  last_token_ = sampled.id;
  sampler_->accept(sampled.id);

  if (tokenizer_.is_end_of_generation(sampled.id)) {
    finish(FinishReason::kStop);
    return true;
  }
  std::string piece = tokenizer_.token_to_piece(sampled.id);
  // A trigger written while the model reasons is not a call: an "auto"
  // grammar arms only in the answer.
  const bool reasoning = splitter_ && splitter_->in_reasoning();
  if (grammar_ && (grammar_->armed() || !reasoning)) {
    if (Status accepted = grammar_->accept(sampled.id, piece); !accepted.ok()) {
      fail(std::move(accepted.error()));
      return true;
    }
  }
  unsent_tokens_.push_back({sampled.id, std::move(piece), sampled.logprob, std::move(sampled.top)});
  TextEvent event;
  if (add_text_of(sampled.id, event)) {
    if (!emit(std::move(event))) return true;
    finish(FinishReason::kStop);
    return true;
  }
  bool grammar_complete = grammar_ && grammar_->must_end();
  // No cell is left to process the token just sampled, so none can follow it.
  bool out_of_budget = max_tokens_ >= 0 && generated_ >= max_tokens_;
  bool out_of_context = position() >= context_limit;
  if (!emit(std::move(event))) return true;
  spend_reasoning_budget();
  if (grammar_complete) {
    finish(FinishReason::kStop);
    return true;
  }
  if (out_of_budget || out_of_context) {
    finish(FinishReason::kLength);
    return true;
  }
  return false;
}

// Counts the token just emitted when it was reasoning; past the request's
// budget, the end-of-thinking tag is forced.
void Slot::spend_reasoning_budget() {
  if (!splitter_ || !splitter_->in_reasoning()) return;
  ++reasoning_tokens_;
  if (reasoning_budget_ < 0) return;
  if (next_forced_ < forced_.size()) return;  // already closing
  if (reasoning_tokens_ < reasoning_budget_) return;
  forced_ = tokenizer_.encode(splitter_->tags().close, /*add_special=*/false,
                              /*parse_special=*/true);
  next_forced_ = 0;
}

bool Slot::emit(TextEvent event) {
  bool has_text = !event.content.empty() || !event.reasoning.empty();
  // Tokens ride with the text they produced; a token whose text is held
  // back (a partial stop string or character) waits for the next event.
  if (!has_text) return true;
  event.tokens = std::move(unsent_tokens_);
  unsent_tokens_.clear();
  // The engine ran this slot only with room for its events (room_for_events).
  if (request_->events.push(std::move(event))) return true;
  finish(FinishReason::kCancelled);  // the consumer has gone
  return false;
}

void Slot::finish(FinishReason reason) {
  if (!request_) return;
  if (reason != FinishReason::kCancelled) {
    TextEvent rest;
    take_held_text(rest);
    rest.tokens = std::move(unsent_tokens_);
    if (!rest.content.empty() || !rest.reasoning.empty() || !rest.tokens.empty()) {
      request_->events.push(std::move(rest));
    }
  }
  usage_.completion_tokens = generated_;
  usage_.reasoning_tokens = reasoning_tokens_;
  usage_.total_ms = ms_since(submitted_);
  FinishEvent finished{reason, usage_, {}, {}};
  if (reason == FinishReason::kStop) finished.stop_sequence = stop_->matched();
  if (pooled_ && reason != FinishReason::kCancelled) finished.embedding = pooled_->take();
  request_->events.push(std::move(finished));
  release();
}

// The token's text through the decoder, the stop strings and the
// reasoning split, added to `event`; true when a stop string matched.
bool Slot::add_text_of(int32_t token, TextEvent& event) {
  auto matched = stop_->push(decoder_->push(token));
  if (splitter_) {
    auto split = splitter_->push(matched.text);
    event.content += split.content;
    event.reasoning += split.reasoning;
  } else {
    event.content += matched.text;
  }
  return matched.stopped;
}

// The text held back at the reply's end (a partial stop string or
// character, the reasoning splitter's tail), added to `event`.
void Slot::take_held_text(TextEvent& event) {
  std::string tail = stop_->stopped() ? std::string() : stop_->push(decoder_->flush()).text;
  if (!stop_->stopped()) tail += stop_->flush();
  if (splitter_) {
    auto split = splitter_->push(tail);
    auto last = splitter_->flush();
    event.content += split.content + last.content;
    event.reasoning += split.reasoning + last.reasoning;
  } else {
    event.content += tail;
  }
}

void Slot::fail(Error error) {
  if (!request_) return;
  request_->events.push(ErrorEvent{std::move(error)});
  release();
}

void Slot::release() {
  request_.reset();
  prompt_.clear();
  prefill_cursor_ = 0;
  sampler_.reset();
  decoder_.reset();
  stop_.reset();
  splitter_.reset();
  grammar_.reset();
  denoiser_.reset();
  unsent_tokens_.clear();
  prompt_logprobs_ = -1;
  prompt_scores_.clear();
}

}  // namespace ingot::engine
