#include "engine/engine.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <optional>

namespace ingot::engine {
namespace {

constexpr int64_t kDefaultContextCap = 4096;
// Masks are vocabulary-sized bitsets (19 KB for Qwen's 151k tokens).
constexpr size_t kGrammarMaskCacheStates = 512;
constexpr size_t kScoredChunk = 32;
// Hybrid models: a prompt's recurrent state is kept at every multiple of
// this many tokens and at the prompt's end, for later requests to resume.
constexpr size_t kSnapshotInterval = 256;

Status check_options(const EngineOptions& options) {
  if (options.parallel < 1 || options.parallel > 256) {
    return invalid_argument("--parallel must be between 1 and 256");
  }
  if (options.batch_size < 1) return invalid_argument("--batch-size must be at least 1");
  if (options.max_queue < 0) return invalid_argument("--max-queue must not be negative");
  if (options.cache_ram_bytes < 0) return invalid_argument("--cache-ram must not be negative");
  if (options.prompt_cache_bytes < 1) {
    return invalid_argument("--prompt-cache-size must be positive");
  }
  if (options.prompt_cache_min_tokens < 0) {
    return invalid_argument("--prompt-cache-min must not be negative");
  }
  if (options.context_size < 0) return invalid_argument("--ctx-size must not be negative");
  if (options.draft_tokens < 0 || options.draft_tokens > 16) {
    return invalid_argument("--draft-max must be between 0 and 16");
  }
  if (!(options.draft_min_probability >= 0.0f && options.draft_min_probability <= 1.0f)) {
    return invalid_argument("--draft-p-min must be between 0 and 1");
  }
  return {};
}

// The prompt cache's cells: as many positions as its bytes hold.
int64_t prompt_cache_cells(const EngineOptions& options, const model::Model& model) {
  if (options.cache_ram_bytes <= 0 || model.config().n_recurrent_layers > 0) return 0;
  const int64_t per_position = model.kv_bytes_per_position(options.cache_types);
  return per_position > 0 ? options.cache_ram_bytes / per_position : 0;
}

// The disk cache saves whole blocks, so it keeps the windows whole too. A
// canvas step adds its canvases' positions (canvas_pass_limit's worth).
model::KvCache::WindowPlan window_plan(const EngineOptions& options, const model::Model& model) {
  if (options.swa_full || !options.prompt_cache_dir.empty()) return {};
  const int64_t canvas = model.config().diffusion.canvas_length;
  const int64_t step_tokens =
      std::max<int64_t>(options.batch_size, canvas * canvases_per_pass(options, canvas));
  return model.window_plan(options.parallel, step_tokens);
}

int64_t resolve_context(const EngineOptions& options, const model::ModelConfig& config) {
  // BERT has no position past the ones it learned.
  if (config.traits.learned_positions) {
    return options.context_size > 0 ? std::min(options.context_size, config.context_length)
                                    : config.context_length;
  }
  if (options.context_size > 0) return options.context_size;
  int64_t trained = config.context_length > 0 ? config.context_length : kDefaultContextCap;
  return std::min(trained, kDefaultContextCap);
}

// The positions a reply needs after its prompt: max_tokens; a diffusion
// reply's rounded up to whole canvases, at least one.
int64_t reply_room(const GenerationRequest& request, int64_t canvas_length) {
  if (!request.canvas) return std::max<int64_t>(request.max_tokens, 0);
  if (request.max_tokens == 0) return 0;
  const int64_t wanted = std::max<int64_t>(request.max_tokens, 1);
  return (wanted + canvas_length - 1) / canvas_length * canvas_length;
}

}  // namespace

int64_t canvases_per_pass(const EngineOptions& options, int64_t canvas_length) {
  if (canvas_length <= 0) return 0;
  return std::max<int64_t>(1, options.batch_size / canvas_length);
}

// A diffusion model's replies are denoised, any other's drawn token by
// token: a request must ask for the kind its model makes.
Status Engine::check_generation_kind(const GenerationRequest& request) const {
  const bool diffusion = model_.config().traits.diffusion;
  if (request.canvas && !diffusion) {
    return invalid_argument("a canvas request for a model that generates token by token");
  }
  if (diffusion && !request.canvas && request.max_tokens != 0 && !request.pooling) {
    return invalid_argument("the model generates by denoising canvases: the request needs them");
  }
  return {};
}

Result<std::unique_ptr<Engine>> Engine::start(model::Model& model,
                                              const tokenizer::Tokenizer& tokenizer,
                                              EngineOptions options) {
  INGOT_RETURN_IF_ERROR(check_options(options));
  if (options.draft_tokens > 0 && !model.has_prediction_block()) {
    return unsupported("--mtp: the model has no multi-token-prediction block (nextn layer)");
  }
  INGOT_RETURN_IF_ERROR(model.check_cache_types(options.cache_types));
  std::unique_ptr<Engine> engine(new Engine(model, tokenizer, options));
  engine->thread_ = std::thread([raw = engine.get()] { raw->run(); });
  return engine;
}

Engine::Engine(model::Model& model, const tokenizer::Tokenizer& tokenizer, EngineOptions options)
    : model_(model),
      tokenizer_(tokenizer),
      options_(options),
      context_size_(resolve_context(options, model.config())),
      own_pool_(options.shared_compute
                    ? nullptr
                    : std::make_unique<ThreadPool>(options.threads > 0
                                                       ? options.threads
                                                       : ThreadPool::default_thread_count())),
      pool_(options.shared_compute ? options.shared_compute->pool() : *own_pool_),
      cache_(model.make_cache(context_size_ * options.parallel, prompt_cache_cells(options, model),
                              options.cache_types, window_plan(options, model))) {
  model.prepare_for_context(context_size_);
  // An encoder's sequence runs in one pass (every token sees all of it),
  // so a pass must hold the longest.
  if (!model.config().causal) {
    options_.batch_size = std::max<int32_t>(options_.batch_size, int32_t(context_size_));
  }
  // A recurrent state cannot be shared by block: hybrid models keep each
  // slot's own prefix (and its snapshots) instead.
  if (cache_.recurrent().empty_shape()) cache_.share_prefixes();
  if (!options.prompt_cache_dir.empty()) open_disk_cache();
  slots_.reserve(static_cast<size_t>(options.parallel));
  const model::ModelConfig& config = model.config();
  const int64_t canvas = config.diffusion.canvas_length;
  for (int32_t i = 0; i < options.parallel; ++i) {
    slots_.emplace_back(i, tokenizer_, model.rank_head(), canvas, canvas > 0 ? config.n_vocab : 0);
  }
  in_batch_.resize(slots_.size());
  if (options.draft_tokens > 0) {
    drafter_ = std::make_unique<Drafter>(model, options.draft_tokens, options.draft_min_probability,
                                         context_size_ * options.parallel, slots_.size());
  }
  if (options.prepare_grammar) make_masker();
}

void Engine::open_disk_cache() {
  if (!cache_.shares_prefixes()) {
    spdlog::warn(
        "--prompt-cache: a hybrid model's prefixes are kept per slot, with their recurrent "
        "state, not on disk");
    return;
  }
  PromptDiskOptions disk;
  disk.dir = options_.prompt_cache_dir;
  disk.max_bytes = options_.prompt_cache_bytes;
  disk_ = std::make_unique<DiskPrefixes>(std::move(disk), options_.prompt_cache_min_tokens, model_,
                                         cache_);
  if (!disk_->enabled()) disk_.reset();
}

void Engine::flush_disk_cache() {
  if (disk_) disk_->flush();
}

Engine::~Engine() {
  stop();
}

void Engine::stop() {
  {
    std::lock_guard lock(doorbell_->mutex);
    stopping_ = true;
  }
  doorbell_->ring.notify_all();
  if (thread_.joinable()) thread_.join();
}

Result<RequestHandle> Engine::submit(GenerationRequest request) {
  auto prompt_size = static_cast<int64_t>(request.prompt.size());
  if (prompt_size == 0) return invalid_argument("the prompt is empty");
  if (request.pooling == Pooling::kRank && model_.rank_head() == nullptr) {
    return invalid_argument("the model has no classification head (cls.output): it cannot rank");
  }
  INGOT_RETURN_IF_ERROR(check_generation_kind(request));
  // A generation needs room after its prompt (a diffusion reply, whole
  // canvases); an embedding does not.
  const int64_t reply = reply_room(request, model_.config().diffusion.canvas_length);
  if (prompt_size > context_size_ || (prompt_size == context_size_ && !request.pooling) ||
      prompt_size + reply > context_size_) {
    return Error(ErrorKind::kContextLengthExceeded,
                 "the prompt has " + std::to_string(prompt_size) + " tokens" +
                     (request.max_tokens > 0
                          ? " and max_tokens asks for " + std::to_string(request.max_tokens)
                          : std::string()) +
                     (request.canvas ? " (in whole canvases, " + std::to_string(reply) + ")"
                                     : std::string()) +
                     ", but the context holds " + std::to_string(context_size_) + " tokens");
  }
  std::shared_ptr<RequestState> state;
  {
    std::lock_guard lock(doorbell_->mutex);
    if (stopping_) return Error(ErrorKind::kUnavailable, "the server is shutting down");
    int32_t free_slots = options_.parallel - active_.load();
    if (static_cast<int64_t>(queue_.size()) >= options_.max_queue + std::max(free_slots, 0)) {
      return Error(ErrorKind::kResourceExhausted,
                   "all " + std::to_string(options_.parallel) + " slots are busy and " +
                       std::to_string(queue_.size()) + " requests are waiting");
    }
    state = std::make_shared<RequestState>(next_id_++);
    queue_.push_back({state, std::move(request), Clock::now()});
  }
  doorbell_->ring.notify_all();
  auto wake = [doorbell = doorbell_] { doorbell->wake(); };
  state->events.set_drained(wake);
  return RequestHandle(state, wake);
}

EngineStats Engine::stats() const {
  EngineStats stats;
  stats.slots = options_.parallel;
  stats.active = active_.load();
  stats.paused = paused_.load();
  {
    std::lock_guard lock(doorbell_->mutex);
    stats.queued = static_cast<int32_t>(queue_.size());
  }
  stats.kv_cells_used = kv_used_.load();
  stats.kv_cells_total = cache_.capacity();
  stats.prefix_cache_hits = prefix_hits_.load();
  stats.prefix_tokens_reused = prefix_tokens_.load();
  stats.kv_blocks_cached = kv_blocks_cached_.load();
  stats.kv_block_evictions = kv_block_evictions_.load();
  stats.drafted_tokens = drafted_.load();
  stats.accepted_drafts = accepted_.load();
  if (disk_) {
    stats.disk_cache = true;
    stats.disk = disk_->stats();
  }
  return stats;
}

void Engine::run() {
  while (wait_for_work()) step();
  for (Slot& slot : slots_) slot.finish(FinishReason::kCancelled);
  std::lock_guard lock(doorbell_->mutex);
  for (Pending& pending : queue_) {
    pending.state->events.push(FinishEvent{FinishReason::kCancelled, {}, {}, {}});
  }
  queue_.clear();
  active_ = 0;
}

// Sleeps while no slot can run and no waiting request can take a slot. A
// paused slot's channel rings the doorbell once drained (room() armed it
// before this looked), and so does every cancel, so no wake-up is lost.
bool Engine::wait_for_work() {
  bool runnable = false, free_slot = false;
  for (Slot& slot : slots_) {
    if (!slot.busy()) {
      free_slot = true;
    } else if (!slot.generating() || slot.room_for_events() > 0) {
      runnable = true;
    }
  }
  std::unique_lock lock(doorbell_->mutex);
  doorbell_->ring.wait(lock, [&] {
    return stopping_ || runnable || doorbell_->rung || (free_slot && !queue_.empty());
  });
  doorbell_->rung = false;
  return !stopping_;
}

void Engine::step() {
  drop_cancelled();
  admit_waiting();
  build_batch();
  if (!batch_.empty()) run_batch();
  if (model_.config().traits.diffusion) denoise_canvases();
}

void Engine::run_batch() {
  std::optional<SharedCompute::Turn> turn;
  if (options_.shared_compute) turn.emplace(options_.shared_compute->take_turn());
  Result<model::Logits> logits = model_.forward(batch_, cache_, pool_);
  if (!logits.ok()) {
    spdlog::error("forward pass failed: {}", logits.error().describe());
    fail_batch(logits.error());
    publish_stats();
    return;
  }
  for (size_t i = 0; i < slots_.size(); ++i) {
    Slot& slot = slots_[i];
    if (in_batch_[i].prefill > 0) slot.committed_prefill(in_batch_[i].prefill);
    if (in_batch_[i].decodes) slot.committed_decode();
    // An encoder's keys depend on the tokens after them: no prefix of its
    // sequence is reusable. An adapted sequence's are shared under its
    // adapters' seed, and kept in memory only.
    if (!in_batch_[i].any() || !model_.config().causal) continue;
    cache_.publish(slot.sequence(), slot.cached(), slot.prefix_seed());
    if (disk_ && slot.lora().empty()) disk_->save(cache_, slot.sequence(), slot.cached());
  }
  keep_recurrent_snapshots();
  pool_embeddings(*logits);
  score_prompts(*logits);
  draw_tokens(*logits);
  for (int64_t row : draw_rows_)
    logits_rows_[static_cast<size_t>(row)].slot->take_drawn(context_size_);
  if (drafter_) {
    verify_drafts(*logits);
    make_drafts(*logits);
  }
  publish_stats();
}

// A slot keeps its drafts while its own sampling agrees with them: the row
// after a draft is drawn only when the draft was the token drawn before
// it. The cache then goes back to what the slot kept (the recurrent state
// to its checkpoint there).
void Engine::verify_drafts(const model::Logits& logits) {
  for (size_t i = 0; i < slots_.size(); ++i) {
    const SlotInBatch& carried = in_batch_[i];
    if (carried.drafts == 0) continue;
    Slot& slot = slots_[i];
    std::span<const int32_t> drafts = drafter_->drafts(slot);
    size_t accepted = 0;
    while (accepted < carried.drafts && slot.busy() && slot.decode_token() == drafts[accepted]) {
      slot.committed_decode();
      slot.draw(logits.row(carried.first_row + 1 + int64_t(accepted)), logits.n_vocab);
      ++accepted;
      if (slot.take_drawn(context_size_)) break;
    }
    drafted_ += int64_t(carried.drafts);
    accepted_ += int64_t(accepted);
    drafter_->record(slot, carried.drafts, accepted);
    cache_.truncate(slot.sequence(), slot.position());
  }
}

// Drafts are a guess: when the prediction block fails, the step stands and
// the slots decode without drafts.
void Engine::make_drafts(const model::Logits& logits) {
  slot_steps_.clear();
  for (size_t i = 0; i < slots_.size(); ++i) {
    if (!in_batch_[i].any()) continue;
    slot_steps_.push_back({&slots_[i], in_batch_[i].first_entry, in_batch_[i].first_position});
  }
  Status drafted = drafter_->draft(slot_steps_, logits, context_size_, pool_);
  if (!drafted.ok()) {
    spdlog::warn("multi-token prediction failed, decoding without drafts: {}",
                 drafted.error().describe());
    for (Slot& slot : slots_) drafter_->forget(slot);
  }
}

// Rows that score a prompt token, then, for each slot whose prompt is now
// all in, the scores it sends and the end of a request that samples
// nothing. A slot that ended here draws no token.
void Engine::score_prompts(const model::Logits& logits) {
  for (int64_t row = 0; row < logits.n_rows; ++row) {
    const LogitsRow& owner = logits_rows_[static_cast<size_t>(row)];
    if (!owner.draws && !owner.verifies) {
      owner.slot->score_prompt_row(logits.row(row), logits.n_vocab);
    }
  }
  for (size_t i = 0; i < slots_.size(); ++i) {
    if (in_batch_[i].prefill > 0 && !slots_[i].prefilling()) slots_[i].prompt_done();
  }
  draw_rows_.clear();
  for (int64_t row = 0; row < logits.n_rows; ++row) {
    const LogitsRow& owner = logits_rows_[static_cast<size_t>(row)];
    if (owner.draws && owner.slot->busy()) draw_rows_.push_back(row);
  }
}

// Every drawing row's token, on the thread pool: sampling a slot over a
// large vocabulary (top-p above all) is not free, and the pool's other
// threads would be idle while the engine thread sampled the slots one
// after another. A grammar slot masks through the shared masker, so a
// step with one draws every row here.
void Engine::draw_tokens(const model::Logits& logits) {
  auto draw = [&](int64_t row) {
    logits_rows_[static_cast<size_t>(row)].slot->draw(logits.row(row), logits.n_vocab);
  };
  const bool any_grammar = std::any_of(draw_rows_.begin(), draw_rows_.end(), [&](int64_t row) {
    return logits_rows_[static_cast<size_t>(row)].slot->uses_grammar();
  });
  if (any_grammar) {
    for (int64_t row : draw_rows_) draw(row);
    return;
  }
  pool_.parallel_for(static_cast<int64_t>(draw_rows_.size()), 1, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) draw(draw_rows_[static_cast<size_t>(i)]);
  });
}

void Engine::drop_cancelled() {
  for (Slot& slot : slots_) {
    if (slot.busy() && slot.request()->cancelled.load(std::memory_order_acquire)) {
      slot.finish(FinishReason::kCancelled);
    }
  }
  std::lock_guard lock(doorbell_->mutex);
  std::erase_if(queue_, [](const Pending& pending) {
    if (!pending.state->cancelled.load(std::memory_order_acquire)) return false;
    pending.state->events.push(FinishEvent{FinishReason::kCancelled, {}, {}, {}});
    return true;
  });
}

void Engine::admit_waiting() {
  for (;;) {
    auto free_slot =
        std::find_if(slots_.begin(), slots_.end(), [](const Slot& s) { return !s.busy(); });
    if (free_slot == slots_.end()) return;
    Pending pending;
    {
      std::lock_guard lock(doorbell_->mutex);
      if (queue_.empty()) return;
      pending = std::move(queue_.front());
      queue_.pop_front();
      // Counted under the lock that submit() reads it under, so a request
      // moving from the queue to a slot is never counted in neither.
      ++active_;
    }
    Slot& slot = choose_slot(pending.request.prompt, pending.request.lora);
    // At least one prompt token is always run, for the logits of the next;
    // a prompt being scored is run whole, for the logits of every token.
    // An embedding pools every prompt token's hidden state: it too is run whole.
    const bool whole = pending.request.prompt_logprobs >= 0 || pending.request.pooling;
    size_t reuse = whole
                       ? 0
                       : std::min(slot.common_prefix(pending.request.prompt, pending.request.lora),
                                  pending.request.prompt.size() - 1);
    // A recurrent state resumes only from its own end (KvCache::resumable_length).
    reuse =
        static_cast<size_t>(cache_.resumable_length(slot.sequence(), static_cast<int64_t>(reuse)));
    cache_.truncate(slot.sequence(), static_cast<int64_t>(reuse));
    // A cut inside a block another sequence shares may end at its start.
    reuse = std::min(reuse, static_cast<size_t>(cache_.sequence_length(slot.sequence())));
    // Shared blocks are found under the request's adapters' seed: only
    // blocks the same adapters computed.
    if (!whole) {
      reuse = attach_shared_prefix(slot, pending.request.prompt, reuse,
                                   lora_prefix_seed(pending.request.lora));
    }
    if (drafter_) drafter_->restart(slot, reuse);
    if (reuse > 0) {
      ++prefix_hits_;
      prefix_tokens_ += static_cast<int64_t>(reuse);
    }
    sampling::grammar::TokenMasker* masker = masker_for(pending.request);
    slot.start(std::move(pending.state), std::move(pending.request), reuse, pending.submitted,
               masker);
  }
}

sampling::grammar::TokenMasker* Engine::masker_for(const GenerationRequest& request) {
  if (!request.sampling.grammar) return nullptr;
  if (!masker_) make_masker();
  return masker_.get();
}

void Engine::make_masker() {
  masker_ = std::make_unique<sampling::grammar::TokenMasker>(
      sampling::grammar::TokenTrie::for_tokenizer(tokenizer_), kGrammarMaskCacheStates);
}

void Engine::build_batch() {
  batch_.clear();
  logits_rows_.clear();
  std::fill(in_batch_.begin(), in_batch_.end(), SlotInBatch{});
  auto budget = static_cast<size_t>(options_.batch_size);
  for (size_t i = 0; i < slots_.size() && budget > 0; ++i) {
    Slot& slot = slots_[i];
    if (!slot.decoding()) continue;
    // The token and each draft that stands send an event at most.
    const size_t room = slot.room_for_events();
    if (room == 0) continue;  // paused until its consumer reads
    std::span<const int32_t> drafts =
        drafter_ ? drafter_->drafts(slot) : std::span<const int32_t>();
    drafts = drafts.first(std::min({drafts.size(), budget - 1, room - 1}));
    // A drafted token may be refused: the recurrent state is kept after
    // each entry but the last (when all stand, the live state is the one).
    const bool checkpoint = !drafts.empty();
    in_batch_[i].first_entry = batch_.size();
    in_batch_[i].first_position = slot.position();
    in_batch_[i].first_row = static_cast<int64_t>(logits_rows_.size());
    batch_.add(slot.decode_token(), slot.position(), slot.sequence(), true, checkpoint,
               &slot.lora());
    logits_rows_.push_back({&slot, true});
    for (size_t j = 0; j < drafts.size(); ++j) {
      batch_.add(drafts[j], slot.position() + 1 + static_cast<int64_t>(j), slot.sequence(), true,
                 j + 1 < drafts.size(), &slot.lora());
      logits_rows_.push_back({&slot, false, true});
    }
    in_batch_[i].decodes = true;
    in_batch_[i].drafts = drafts.size();
    budget -= 1 + drafts.size();
  }
  for (size_t i = 0; i < slots_.size() && budget > 0; ++i) {
    Slot& slot = slots_[i];
    if (!slot.prefilling()) continue;
    take_blocks_computed_meanwhile(slot);
    if (!slot.prefilling() || waits_for_another_slots_prefill(i)) continue;
    // An encoder's sequence runs whole: one that does not fit waits.
    if (!model_.config().causal && slot.prefill_remaining() > budget) continue;
    in_batch_[i].first_entry = batch_.size();
    in_batch_[i].first_position = slot.position();
    std::span<const int32_t> chunk = slot.next_prefill(prefill_budget(slot, budget));
    bool completes = chunk.size() == slot.prefill_remaining();
    for (size_t j = 0; j < chunk.size(); ++j) {
      bool draws = completes && j + 1 == chunk.size() && slot.draws_after_prompt();
      bool wants_logits = draws || slot.scores_prompt();
      batch_.add(chunk[j], slot.position() + static_cast<int64_t>(j), slot.sequence(), wants_logits,
                 false, &slot.lora());
      if (wants_logits) logits_rows_.push_back({&slot, draws});
    }
    in_batch_[i].prefill = chunk.size();
    budget -= chunk.size();
    if (slot.embeds()) batch_.keep_hidden();
  }
  if (drafter_) batch_.keep_hidden();
}

// An embedding slot's prompt tokens just run: their hidden states, in the
// batch's entry order, pooled by the slot.
void Engine::pool_embeddings(const model::Logits& logits) {
  if (logits.hidden == nullptr) return;
  const int64_t n_embd = model_.config().n_embd;
  for (size_t i = 0; i < slots_.size(); ++i) {
    const SlotInBatch& carried = in_batch_[i];
    if (carried.prefill == 0 || !slots_[i].embeds()) continue;
    slots_[i].pool_hidden(logits.hidden + carried.first_entry * n_embd,
                          static_cast<int64_t>(carried.prefill), n_embd, carried.first_position);
  }
}

// A scored prompt wants a vocabulary-sized row per token: its chunks are
// kept short so that the logits buffer stays small. A hybrid model's chunk
// stops at the next snapshot boundary, where the state is kept.
size_t Engine::prefill_budget(const Slot& slot, size_t budget) const {
  if (slot.scores_prompt()) budget = std::min(budget, kScoredChunk);
  if (!cache_.recurrent().empty_shape()) {
    const auto at = static_cast<size_t>(slot.position());
    budget = std::min(budget, kSnapshotInterval - at % kSnapshotInterval);
  }
  return budget;
}

void Engine::keep_recurrent_snapshots() {
  if (cache_.recurrent().empty_shape()) return;
  for (size_t i = 0; i < slots_.size(); ++i) {
    if (in_batch_[i].prefill == 0) continue;
    const Slot& slot = slots_[i];
    const int64_t length = cache_.sequence_length(slot.sequence());
    if (!slot.prefilling() || length % int64_t(kSnapshotInterval) == 0) {
      cache_.recurrent().save_snapshot(slot.sequence(), length);
    }
  }
}

void Engine::fail_batch(const Error& error) {
  for (size_t i = 0; i < slots_.size(); ++i) {
    Slot& slot = slots_[i];
    if (!in_batch_[i].any()) continue;
    slot.fail(error);
    cache_.drop(slot.sequence());
    if (drafter_) drafter_->forget(slot);
    slot.forget_cache();
  }
}

void Engine::publish_stats() {
  int32_t active = 0, paused = 0;
  int64_t used = 0;
  for (const Slot& slot : slots_) {
    if (slot.busy()) ++active;
    if (slot.paused()) ++paused;
    used += static_cast<int64_t>(slot.cached().size());
  }
  active_ = active;
  paused_ = paused;
  kv_used_ = used;
  const model::KvCache::SharingStats sharing = cache_.sharing_stats();
  kv_blocks_cached_ = sharing.indexed_blocks;
  kv_block_evictions_ = sharing.evictions;
}

}  // namespace ingot::engine
