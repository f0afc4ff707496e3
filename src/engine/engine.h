#pragma once
// The generation engine: one scheduler thread owns the model, the KV cache
// and up to `parallel` slots. Each step it builds one batch holding the
// next token of every decoding slot plus one prefill chunk of newly
// admitted prompts (continuous batching), runs the forward pass, and emits
// each request's events into its bounded channel. A slot whose channel is
// full skips steps until its consumer reads (backpressure): a slow reader
// slows only its own request, and is never cancelled for it. Requests
// beyond the slots wait in arrival order, up to `max_queue`.

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "engine/disk_prefixes.h"
#include "engine/drafter.h"
#include "engine/generation_request.h"
#include "engine/request_handle.h"
#include "engine/shared_compute.h"
#include "engine/slot.h"
#include "model/model.h"
#include "tokenizer/tokenizer.h"
#include "util/status.h"
#include "util/thread_pool.h"

namespace ingot::engine {

struct EngineOptions {
  int32_t parallel = 4;      // slots decoding together
  int32_t batch_size = 512;  // tokens per forward pass, prefill chunks included
  int32_t max_queue = 32;    // requests waiting for a slot
  int64_t context_size = 0;  // positions per slot; 0: the model's, at most 4096
  int32_t threads = 0;       // compute threads; 0: one per physical core
  // Threads shared with other engines, taken in turns a step at a time;
  // null: the engine's own (`threads` of them).
  std::shared_ptr<SharedCompute> shared_compute;
  // Build the grammar masker's vocabulary trie at start rather than at the
  // first request with a grammar, which would otherwise pause every slot
  // while it is built (a few hundred ms on a 150k vocabulary). Servers set
  // it; one-shot tools that may never use a grammar do not.
  bool prepare_grammar = false;
  // Multi-token prediction (--mtp, a model with a prediction block): up to
  // this many tokens drafted for each decoding slot and checked in its
  // next step (Drafter); 0 leaves it off.
  int32_t draft_tokens = 0;
  // A draft the block gives less probability than this ends the slot's
  // drafts for the step (--draft-p-min).
  float draft_min_probability = 0.0f;
  // Room beyond the slots' own cells for finished requests' KV blocks, so
  // that a later request starting with the same tokens finds them though
  // every slot has moved on (--cache-ram). Attention-only models: a
  // recurrent state cannot be shared by block.
  int64_t cache_ram_bytes = 0;
  // The prompt cache on disk (--prompt-cache DIR, engine/disk_prefixes.h):
  // empty leaves it off. Attention-only models, as for cache_ram_bytes.
  std::string prompt_cache_dir;
  // What keys and values are stored in (--cache-type-k, --cache-type-v).
  model::KvCache::Types cache_types;
  // Sliding-window layers keep every position, as full layers do
  // (--swa-full, llama-server's name); else only their windows, unless the
  // prompt cache on disk needs whole blocks.
  bool swa_full = false;
  int64_t prompt_cache_bytes = int64_t{4096} << 20;  // --prompt-cache-size
  int64_t prompt_cache_min_tokens = 256;             // --prompt-cache-min
};

struct EngineStats {
  int32_t slots = 0;
  int32_t active = 0;
  int32_t paused = 0;  // decoding slots waiting for their consumer to read
  int32_t queued = 0;
  int64_t kv_cells_used = 0;
  int64_t kv_cells_total = 0;
  int64_t prefix_cache_hits = 0;  // requests that reused cached tokens
  int64_t prefix_tokens_reused = 0;
  int64_t kv_blocks_cached = 0;  // full blocks a new request may start from
  int64_t kv_block_evictions = 0;
  int64_t drafted_tokens = 0;  // multi-token prediction: drafts checked
  int64_t accepted_drafts = 0;
  bool disk_cache = false;  // --prompt-cache in use
  PromptDiskStats disk;
};

// How many canvases of `canvas_length` one canvas step runs: as many as
// the batch size holds, at least one. Each wants a vocabulary-sized row per
// position, so the batch size bounds that buffer as it bounds a prefill's.
int64_t canvases_per_pass(const EngineOptions& options, int64_t canvas_length);

class Engine {
 public:
  // The model and tokenizer must outlive the engine, and the model must not
  // serve another engine at the same time (its forward pass keeps scratch
  // buffers).
  static Result<std::unique_ptr<Engine>> start(model::Model& model,
                                               const tokenizer::Tokenizer& tokenizer,
                                               EngineOptions options);
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Queues a request. Refused at once (nothing queued) when the prompt and
  // max_tokens cannot fit a slot's context (kContextLengthExceeded), when
  // the queue is full (kResourceExhausted) or the engine is stopping.
  Result<RequestHandle> submit(GenerationRequest request);

  EngineStats stats() const;
  int64_t context_size() const { return context_size_; }
  const EngineOptions& options() const { return options_; }
  // Whether the grammar masker exists yet (see prepare_grammar). Without
  // prepare_grammar the engine thread builds it at the first grammar
  // request, so only ask before submitting one.
  bool grammar_prepared() const { return masker_ != nullptr; }

  // Cancels every request and stops the thread; later submits are refused.
  void stop();
  // Returns once every prompt-cache block queued for the disk is written.
  void flush_disk_cache();

 private:
  struct Pending {
    std::shared_ptr<RequestState> state;
    GenerationRequest request;
    Clock::time_point submitted;
  };

  Engine(model::Model& model, const tokenizer::Tokenizer& tokenizer, EngineOptions options);

  void open_disk_cache();
  Status check_generation_kind(const GenerationRequest& request) const;
  void run();
  bool wait_for_work();
  void drop_cancelled();
  void admit_waiting();
  Slot& choose_slot(const std::vector<int32_t>& prompt, const model::LoraSet& lora);
  size_t attach_shared_prefix(const Slot& slot, const std::vector<int32_t>& prompt, size_t reuse,
                              uint64_t seed);
  void build_batch();
  void pool_embeddings(const model::Logits& logits);
  size_t prefill_budget(const Slot& slot, size_t budget) const;
  bool waits_for_another_slots_prefill(size_t index) const;
  void take_blocks_computed_meanwhile(Slot& slot);
  bool can_share_while_prefilling(const Slot& slot) const;
  void keep_recurrent_snapshots();
  void step();
  void run_batch();
  // engine_canvas.cpp: a diffusion model's canvas step.
  void denoise_canvases();
  void fail_canvases(const Error& error);
  void score_prompts(const model::Logits& logits);
  void draw_tokens(const model::Logits& logits);
  void verify_drafts(const model::Logits& logits);
  void make_drafts(const model::Logits& logits);
  void fail_batch(const Error& error);
  void publish_stats();
  sampling::grammar::TokenMasker* masker_for(const GenerationRequest& request);
  void make_masker();

  model::Model& model_;
  const tokenizer::Tokenizer& tokenizer_;
  EngineOptions options_;
  int64_t context_size_;
  std::unique_ptr<ThreadPool> own_pool_;  // null with shared_compute
  ThreadPool& pool_;                      // its own or the shared one
  model::KvCache cache_;
  std::vector<Slot> slots_;
  model::Batch batch_;
  // Which slot each logits row belongs to, in batch order, and whether the
  // row draws the slot's next token or scores a prompt token.
  struct LogitsRow {
    Slot* slot;
    bool draws;
    bool verifies = false;  // a draft's row, drawn once the draft before it stands
  };
  std::vector<LogitsRow> logits_rows_;
  std::vector<int64_t> draw_rows_;  // the rows that draw, in order
  // A diffusion model's canvas step: the canvases of the slots it runs, in
  // slot order from canvas_turn_, each entry's previous probabilities.
  model::Batch canvas_batch_;
  std::vector<const float*> canvas_previous_;
  std::vector<Slot*> canvas_slots_;
  size_t canvas_turn_ = 0;
  // What this batch carries for each slot: prefill tokens, or its next
  // decode token and the drafts checked after it; where its entries start
  // (entry, position) and, for a decoding slot, its first logits row.
  struct SlotInBatch {
    size_t prefill = 0;
    bool decodes = false;
    size_t drafts = 0;
    int64_t first_entry = 0;
    int64_t first_position = 0;
    int64_t first_row = 0;

    bool any() const { return prefill > 0 || decodes; }
  };
  std::vector<SlotInBatch> in_batch_;  // by slot
  std::unique_ptr<DiskPrefixes> disk_;
  std::unique_ptr<Drafter> drafter_;
  std::vector<Drafter::SlotStep> slot_steps_;
  // Built at start (prepare_grammar) or at the first request with a
  // grammar (a walk of the vocabulary's trie per new grammar state, masks
  // cached by state); engine thread only once the thread runs.
  std::unique_ptr<sampling::grammar::TokenMasker> masker_;

  // Shared with every RequestHandle so that cancel() can wake the engine
  // even from a handle that outlives it.
  struct Doorbell {
    std::mutex mutex;
    std::condition_variable ring;
    bool rung = false;  // since the engine last looked for work

    void wake() {
      {
        std::lock_guard lock(mutex);
        rung = true;
      }
      ring.notify_all();
    }
  };
  std::shared_ptr<Doorbell> doorbell_ = std::make_shared<Doorbell>();
  // Guarded by doorbell_->mutex.
  std::deque<Pending> queue_;
  bool stopping_ = false;
  uint64_t next_id_ = 1;

  std::atomic<int32_t> active_{0};  // busy slots, for submit() and stats()
  std::atomic<int32_t> paused_{0};
  std::atomic<int64_t> kv_used_{0};
  std::atomic<int64_t> kv_blocks_cached_{0};
  std::atomic<int64_t> kv_block_evictions_{0};
  std::atomic<int64_t> prefix_hits_{0};
  std::atomic<int64_t> prefix_tokens_{0};
  std::atomic<int64_t> drafted_{0};
  std::atomic<int64_t> accepted_{0};
  std::thread thread_;
};

}  // namespace ingot::engine
