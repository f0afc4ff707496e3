#pragma once
// One forward pass's worth of tokens: any mix of entries from any number of
// sequences (a prompt's chunk for one, the next token for others). Each
// entry says where its token sits and whether its logits are wanted.

#include <cstdint>
#include <vector>

#include "model/kv_cache.h"
#include "model/lora_adapter.h"

namespace ingot::model {

struct BatchEntry {
  int32_t token;
  int64_t position;  // within its sequence: the sequence's cached length so far
  SequenceId sequence;
  bool wants_logits;
  // Keep the recurrent state as it stands after this entry (a speculative
  // step's token, which a later truncate() may go back to).
  bool checkpoint = false;
  // The LoRA adapters the entry's sequence runs with; null or empty: none.
  // Owned by the caller, alive until the step's forward() returns.
  const LoraSet* lora = nullptr;
};

class Batch {
 public:
  void add(int32_t token, int64_t position, SequenceId sequence, bool wants_logits,
           bool checkpoint = false, const LoraSet* lora = nullptr) {
    entries_.push_back({token, position, sequence, wants_logits, checkpoint, lora});
    if (wants_logits) ++n_logits_;
    if (lora != nullptr && !lora->empty()) has_lora_ = true;
  }
  void clear() {
    entries_.clear();
    n_logits_ = 0;
    keeps_hidden_ = false;
    has_lora_ = false;
  }
  // Whether any entry runs with an adapter.
  bool has_lora() const { return has_lora_; }
  // Also return every entry's final hidden state (Logits::hidden): the
  // multi-token-prediction block reads the trunk's.
  void keep_hidden() { keeps_hidden_ = true; }
  bool keeps_hidden() const { return keeps_hidden_; }

  const std::vector<BatchEntry>& entries() const { return entries_; }
  int64_t size() const { return int64_t(entries_.size()); }
  bool empty() const { return entries_.empty(); }
  // Entries that want logits: the rows forward() returns, in entry order.
  int64_t n_logits() const { return n_logits_; }

 private:
  std::vector<BatchEntry> entries_;  // reused across steps: clear() keeps capacity
  int64_t n_logits_ = 0;
  bool keeps_hidden_ = false;
  bool has_lora_ = false;
};

// The logits forward() returns: one row of n_vocab per entry that wanted
// them, in entry order. Valid until the next forward(); the caller may
// modify them in place (samplers apply biases and penalties there).
struct Logits {
  float* data = nullptr;
  int64_t n_rows = 0;
  int64_t n_vocab = 0;
  // When the batch keeps hidden states: one row of n_embd per entry, the
  // final normed state the vocabulary projection reads.
  const float* hidden = nullptr;

  float* row(int64_t i) const { return data + i * n_vocab; }
};

}  // namespace ingot::model
