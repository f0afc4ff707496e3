#pragma once
// One of the engine's parallel sequences. A slot keeps the tokens its
// sequence holds in the KV cache after a request ends, so that the next
// request sharing a prefix (the same conversation's next turn, a common
// system prompt) prefills only the rest.

#include <chrono>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

#include "engine/generation_request.h"
#include "engine/grammar_constraint.h"
#include "engine/reasoning_splitter.h"
#include "engine/request_handle.h"
#include "engine/stop_matcher.h"
#include "model/kv_cache.h"
#include "sampling/canvas_denoiser.h"
#include "sampling/sampler.h"
#include "tokenizer/streaming_decoder.h"
#include "tokenizer/tokenizer.h"
#include "util/status.h"
#include "util/thread_pool.h"

namespace ingot::engine {

using Clock = std::chrono::steady_clock;

inline double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// The prefix cache's seed for sequences run with `lora`: prefix blocks are
// shared only between sequences on the same adapters at the same scales.
uint64_t lora_prefix_seed(const model::LoraSet& lora);

class Slot {
 public:
  // `rank_head`: the model's, for rank pooling; may be null. A diffusion
  // model's slots denoise canvases of `canvas_length` over `n_vocab` tokens.
  Slot(model::SequenceId sequence, const tokenizer::Tokenizer& tokenizer,
       const model::RankHead* rank_head = nullptr, int64_t canvas_length = 0, int64_t n_vocab = 0)
      : sequence_(sequence),
        tokenizer_(tokenizer),
        rank_head_(rank_head),
        canvas_length_(canvas_length),
        n_vocab_(n_vocab) {}

  model::SequenceId sequence() const { return sequence_; }
  bool busy() const { return request_ != nullptr; }
  bool prefilling() const { return busy() && prefill_cursor_ < prompt_.size(); }
  bool decoding() const { return busy() && !prefilling() && last_token_ >= 0; }
  // A diffusion request whose prefix is all in: its canvas's next step runs.
  bool denoising() const { return busy() && !prefilling() && denoiser_.has_value(); }
  // Producing its reply (token by token or canvas by canvas): such a slot
  // waits for its consumer when its channel is full.
  bool generating() const { return decoding() || denoising(); }
  // Events the request's consumer may still take this step (see
  // EventChannel::room); a decoding slot with none is paused.
  size_t room_for_events() const { return busy() ? request_->events.room() : 0; }
  bool paused() const { return generating() && request_->events.full(); }
  const std::vector<int32_t>& cached() const { return cached_; }
  const std::shared_ptr<RequestState>& request() const { return request_; }
  // Every prompt token's logits are wanted, to score the prompt.
  bool scores_prompt() const { return busy() && prompt_logprobs_ >= 0; }
  // Whether a reply follows the prompt (max_tokens 0: no), and whether it
  // is drawn token by token from the prompt's last logits (a diffusion
  // request's is denoised a canvas at a time instead).
  bool samples_after_prompt() const { return max_tokens_ != 0; }
  bool draws_after_prompt() const { return samples_after_prompt() && !denoiser_; }
  // An embedding request: every prompt token's hidden state is pooled.
  bool embeds() const { return busy() && pooled_.has_value(); }
  // Folds the hidden states (n rows of n_embd) of the prompt tokens just
  // committed, from position `first` on, into the pooled embedding.
  void pool_hidden(const float* rows, int64_t n, int64_t n_embd, int64_t first);

  // Length of the common prefix of the cached tokens and `prompt`, when
  // they were computed with the same LoRA adapters; else 0.
  size_t common_prefix(const std::vector<int32_t>& prompt, const model::LoraSet& lora) const;
  // The adapters the slot's tokens run (and its cached ones ran) with.
  const model::LoraSet& lora() const { return lora_; }
  // The prefix cache's seed for them (lora_prefix_seed), set once a request.
  uint64_t prefix_seed() const { return prefix_seed_; }

  // Takes a request, keeping `reuse` cached tokens (the caller has already
  // truncated the KV cache to them). `masker` serves a request with a
  // grammar and must outlive it; it may be null otherwise.
  void start(std::shared_ptr<RequestState> state, GenerationRequest request, size_t reuse,
             Clock::time_point submitted, sampling::grammar::TokenMasker* masker = nullptr);

  size_t prefill_remaining() const { return busy() ? prompt_.size() - prefill_cursor_ : 0; }
  // The next prompt tokens to prefill, at most `budget` of them.
  std::span<const int32_t> next_prefill(size_t budget) const;
  // Marks tokens as now in the KV cache.
  void committed_prefill(size_t n);
  // The next `n` prompt tokens are in the cache already (blocks another
  // slot computed meanwhile): they count as cached, not computed.
  void skip_cached_prefill(size_t n);
  const std::vector<int32_t>& prompt() const { return prompt_; }
  int32_t decode_token() const { return last_token_; }
  void committed_decode() { cached_.push_back(last_token_); }
  int64_t position() const { return static_cast<int64_t>(cached_.size()); }
  // Tokens the request may still sample (max_tokens less those sampled).
  int64_t tokens_left() const {
    return max_tokens_ < 0 ? std::numeric_limits<int64_t>::max() / 2 : max_tokens_ - generated_;
  }

  // Sampling a step's token, in two halves so that the engine can draw
  // every slot's token at once on its thread pool. draw() copies this
  // slot's logits row, masks it by the grammar, and picks the token; slots
  // without a grammar may draw on any thread, each its own slot (a grammar
  // mask goes through the engine's one shared masker, so grammar slots
  // draw on the engine thread). take_drawn() then, on the engine thread
  // and in row order, emits what the token produces. It returns true when
  // the request has ended (finish or error sent).
  bool uses_grammar() const { return grammar_.has_value(); }
  void draw(const float* logits, int64_t n_vocab);
  bool take_drawn(int64_t context_limit);

  // A diffusion request's canvas step (slot_canvas.cpp): the tokens the
  // step runs at positions position().. and each one's probabilities at the
  // step before (null on a canvas's first step); then the step's logits
  // (canvas() rows, rewritten). A finished canvas is committed: its text
  // goes out as one event, cut at its first end-of-generation token or at
  // max_tokens, and unless the request ends there its tokens are prefilled
  // next, causally, before the next canvas. Returns true when the request
  // has ended.
  std::span<const int32_t> canvas() const { return denoiser_->canvas(); }
  const float* canvas_previous(int64_t row) const { return denoiser_->previous_probabilities(row); }
  bool take_canvas_step(float* logits, ThreadPool& pool, int64_t context_limit);

  // Scoring the prompt: each row of a prompt token's logits scores the
  // prompt token after it, in order. Once the whole prompt is in,
  // prompt_done() sends the scores (when asked for) and ends a request
  // that samples nothing (the slot is then no longer busy).
  void score_prompt_row(const float* logits, int64_t n_vocab);
  void prompt_done();

  // Ends the request with `reason` after flushing held-back text.
  void finish(FinishReason reason);
  // Ends the request with an error; the slot's cache is forgotten.
  void fail(Error error);
  // Forgets the cached tokens (the caller drops the KV sequence).
  void forget_cache() { cached_.clear(); }

 private:
  bool emit(TextEvent event);
  void take_held_text(TextEvent& event);
  bool add_text_of(int32_t token, TextEvent& event);
  bool commit_canvas(int64_t context_limit);
  // The canvas's tokens through the decoder, stop strings and reasoning
  // split into `event`; true when the request ends at one of them.
  bool read_canvas_token(int32_t token, TextEvent& event, FinishReason& reason);
  void release();
  // Past the reasoning budget: the close tag's tokens are drawn next.
  void spend_reasoning_budget();

  model::SequenceId sequence_;
  const tokenizer::Tokenizer& tokenizer_;
  const model::RankHead* rank_head_;
  int64_t canvas_length_;
  int64_t n_vocab_;
  std::vector<int32_t> cached_;

  std::shared_ptr<RequestState> request_;
  std::vector<int32_t> prompt_;
  size_t prefill_cursor_ = 0;
  int32_t last_token_ = -1;
  int32_t max_tokens_ = -1;
  int64_t generated_ = 0;
  Usage usage_;
  Clock::time_point submitted_;
  std::optional<sampling::Sampler> sampler_;
  std::optional<tokenizer::StreamingDecoder> decoder_;
  std::optional<StopMatcher> stop_;
  std::optional<ReasoningSplitter> splitter_;
  std::optional<GrammarConstraint> grammar_;
  std::optional<sampling::CanvasDenoiser> denoiser_;  // the canvas being denoised
  int32_t reasoning_budget_ = -1;
  int64_t reasoning_tokens_ = 0;
  std::vector<int32_t> forced_;  // tokens drawn instead of sampled, in order
  size_t next_forced_ = 0;
  std::vector<GeneratedToken> unsent_tokens_;
  std::vector<float> scratch_logits_;
  int32_t prompt_logprobs_ = -1;
  std::optional<model::PooledEmbedding> pooled_;
  model::LoraSet lora_;
  uint64_t prefix_seed_ = model::KvCache::kPlainPrefixSeed;
  std::vector<GeneratedToken> prompt_scores_;
  sampling::Candidates score_scratch_;
  // draw()'s token, or the grammar mask's failure, for take_drawn.
  Result<sampling::SampledToken> drawn_ = sampling::SampledToken{};
};

}  // namespace ingot::engine
