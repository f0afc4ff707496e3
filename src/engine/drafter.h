#pragma once
// Self-speculative decoding with a model's multi-token-prediction block
// (Qwen3.5's nextn layer, --mtp). After each step the block drafts the
// next tokens of every decoding slot; the next step runs them through the
// trunk together with the slot's sampled token, and the slot keeps the
// drafts its own sampling agrees with (Engine::verify_drafts).
//
// The block has its own KV cache, one attention layer. Position q of a
// sequence pairs token q with the trunk's final hidden state at q - 1,
// which predicted it; the block's output there predicts token q + 2. So
// after every step the block first takes in the positions the step
// committed (its cache is kept equal to the trunk's), then drafts: the
// slot's sampled token at the next position gives the first draft, and
// each draft, paired with the block's own hidden state, the next.
//
// How many it drafts adapts to how many the slot accepts: one more than
// its last step accepted (all of them: one more than it drafted), up to
// the maximum, so that a slot whose drafts fail checks one per step. A
// draft the block gives less than `min_probability` ends the slot's drafts.

#include <cstdint>
#include <span>
#include <vector>

#include "engine/slot.h"
#include "model/model.h"
#include "util/status.h"
#include "util/thread_pool.h"

namespace ingot::engine {

class Drafter {
 public:
  // `model` must have a prediction block; `n_cells` as the trunk's cache.
  Drafter(model::Model& model, int32_t max_drafts, float min_probability, int64_t n_cells,
          size_t n_slots);

  int32_t max_drafts() const { return max_drafts_; }

  // A slot's new request keeps `reuse` of the tokens it held.
  void restart(const Slot& slot, size_t reuse);
  // The slot's sequence was dropped (a failed step).
  void forget(const Slot& slot);
  // The slot's step checked `drafted` of its drafts and kept `accepted`.
  void record(const Slot& slot, size_t drafted, size_t accepted);

  // The drafts for the slot's next step; empty when there are none.
  std::span<const int32_t> drafts(const Slot& slot) const;

  // What a step ran for one slot: its entries of the trunk's batch from
  // `first_entry` on, the first at `first_position`.
  struct SlotStep {
    const Slot* slot;
    int64_t first_entry;
    int64_t first_position;
  };
  // After the step's tokens are committed and drawn: takes in every slot's
  // committed positions, then drafts for each slot still decoding (none
  // past `context_size` or its remaining tokens). `trunk` is the step's
  // result, its batch having kept hidden states.
  Status draft(std::span<const SlotStep> steps, const model::Logits& trunk, int64_t context_size,
               ThreadPool& pool);

 private:
  struct SlotDrafts {
    std::vector<int32_t> tokens;
    int64_t length = 0;              // positions the block has taken in, as the trunk's
    std::vector<float> last_hidden;  // the trunk's state at position length - 1
    bool hidden_known = false;
    bool usable = true;  // false once the block's cache fell behind the trunk's
    int64_t limit = 0;   // drafts for the next step (adapted), 0: the maximum
  };

  void catch_up(const SlotStep& step, const model::Logits& trunk, int64_t context_size);
  void take_drafts(const model::Logits& logits);
  Status draft_further(ThreadPool& pool);

  model::Model& model_;
  int32_t max_drafts_;
  float min_probability_;
  int64_t n_embd_;
  model::KvCache cache_;
  std::vector<SlotDrafts> slots_;  // by sequence id
  model::Batch batch_;
  std::vector<float> hidden_;  // the batch's paired hidden rows
  // A slot drafting: how many drafts it may take, its entry in batch_,
  // and the block's state there, which the next draft pairs with.
  struct Drafting {
    model::SequenceId sequence;
    int64_t room;
    int64_t entry;
    std::vector<float> hidden;
  };
  std::vector<Drafting> drafting_;
};

}  // namespace ingot::engine
