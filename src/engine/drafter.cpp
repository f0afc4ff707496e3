#include "engine/drafter.h"

#include <algorithm>
#include <cmath>

namespace ingot::engine {
namespace {

int32_t argmax(const float* row, int64_t n) {
  return int32_t(std::max_element(row, row + n) - row);
}

// softmax(row)[best], without writing the row.
float probability_of(const float* row, int64_t n, int32_t best) {
  const float top = row[best];
  double sum = 0;
  for (int64_t i = 0; i < n; ++i) sum += std::exp(double(row[i] - top));
  return float(1.0 / sum);
}

}  // namespace

Drafter::Drafter(model::Model& model, int32_t max_drafts, float min_probability, int64_t n_cells,
                 size_t n_slots)
    : model_(model),
      max_drafts_(max_drafts),
      min_probability_(min_probability),
      n_embd_(model.config().n_embd),
      cache_(model.make_prediction_cache(n_cells)),
      slots_(n_slots) {}

void Drafter::restart(const Slot& slot, size_t reuse) {
  SlotDrafts& s = slots_[size_t(slot.sequence())];
  s.tokens.clear();
  // The hidden state kept is the one at the end of what the slot held.
  s.hidden_known = s.hidden_known && int64_t(reuse) == s.length;
  cache_.truncate(slot.sequence(), int64_t(reuse));
  s.usable = cache_.sequence_length(slot.sequence()) == int64_t(reuse);
  s.length = int64_t(reuse);
  s.limit = 0;
}

void Drafter::forget(const Slot& slot) {
  SlotDrafts& s = slots_[size_t(slot.sequence())];
  s = SlotDrafts{};
  cache_.drop(slot.sequence());
}

void Drafter::record(const Slot& slot, size_t drafted, size_t accepted) {
  SlotDrafts& s = slots_[size_t(slot.sequence())];
  const auto next = int64_t(accepted == drafted ? drafted + 1 : accepted + 1);
  s.limit = std::min<int64_t>(next, max_drafts_);
}

std::span<const int32_t> Drafter::drafts(const Slot& slot) const {
  return slots_[size_t(slot.sequence())].tokens;
}

Status Drafter::draft(std::span<const SlotStep> steps, const model::Logits& trunk,
                      int64_t context_size, ThreadPool& pool) {
  if (trunk.hidden == nullptr) return internal_error("the step kept no hidden states");
  batch_.clear();
  hidden_.clear();
  drafting_.clear();
  for (const SlotStep& step : steps) catch_up(step, trunk, context_size);
  if (batch_.empty()) return {};
  batch_.keep_hidden();
  INGOT_ASSIGN_OR_RETURN(model::Logits first,
                         model_.forward_prediction(batch_, hidden_.data(), cache_, pool));
  take_drafts(first);
  return draft_further(pool);
}

// The positions the step committed for the slot, each token paired with
// the trunk's state before it; then, for a slot still decoding, its
// sampled token at the next position, whose output is the first draft.
void Drafter::catch_up(const SlotStep& step, const model::Logits& trunk, int64_t context_size) {
  const Slot& slot = *step.slot;
  const model::SequenceId sequence = slot.sequence();
  SlotDrafts& s = slots_[size_t(sequence)];
  s.tokens.clear();
  if (!s.usable) return;
  const int64_t first = step.first_position, committed = slot.position();
  cache_.truncate(sequence, first);
  if (cache_.sequence_length(sequence) != first || committed <= first) {
    s.usable = false;  // its cache cannot follow the trunk's any more
    return;
  }
  const std::vector<int32_t>& cached = slot.cached();
  auto trunk_row = [&](int64_t position) {
    return trunk.hidden + (step.first_entry + position - first) * n_embd_;
  };
  if (!s.hidden_known) s.last_hidden.assign(size_t(n_embd_), 0.0f);
  for (int64_t q = first; q < committed; ++q) {
    batch_.add(cached[size_t(q)], q, sequence, false);
    const float* h = q == first ? s.last_hidden.data() : trunk_row(q - 1);
    hidden_.insert(hidden_.end(), h, h + n_embd_);
  }
  s.last_hidden.assign(trunk_row(committed - 1), trunk_row(committed - 1) + n_embd_);
  s.hidden_known = true;
  s.length = committed;
  if (!slot.decoding()) return;
  const int64_t limit = s.limit > 0 ? s.limit : max_drafts_;
  const int64_t room = std::min({limit, context_size - committed - 1, slot.tokens_left() - 1});
  if (room <= 0) return;
  batch_.add(slot.decode_token(), committed, sequence, true);
  hidden_.insert(hidden_.end(), s.last_hidden.begin(), s.last_hidden.end());
  drafting_.push_back({sequence, room, batch_.size() - 1, {}});
}

// One draft per drafting entry of the last prediction batch, in order;
// an unlikely one ends its slot's drafts.
void Drafter::take_drafts(const model::Logits& logits) {
  for (size_t i = 0; i < drafting_.size(); ++i) {
    Drafting& d = drafting_[i];
    std::vector<int32_t>& tokens = slots_[size_t(d.sequence)].tokens;
    const float* row = logits.row(int64_t(i));
    const int32_t best = argmax(row, logits.n_vocab);
    if (min_probability_ > 0 && probability_of(row, logits.n_vocab, best) < min_probability_) {
      d.room = int64_t(tokens.size());
      continue;
    }
    tokens.push_back(best);
    d.hidden.assign(logits.hidden + d.entry * n_embd_, logits.hidden + (d.entry + 1) * n_embd_);
  }
}

// Each further draft pairs the last one with the block's own state there.
Status Drafter::draft_further(ThreadPool& pool) {
  for (;;) {
    std::erase_if(drafting_, [&](const Drafting& d) {
      return int64_t(slots_[size_t(d.sequence)].tokens.size()) >= d.room;
    });
    if (drafting_.empty()) return {};
    batch_.clear();
    hidden_.clear();
    for (Drafting& d : drafting_) {
      const SlotDrafts& s = slots_[size_t(d.sequence)];
      batch_.add(s.tokens.back(), s.length + int64_t(s.tokens.size()), d.sequence, true);
      hidden_.insert(hidden_.end(), d.hidden.begin(), d.hidden.end());
      d.entry = batch_.size() - 1;
    }
    batch_.keep_hidden();
    INGOT_ASSIGN_OR_RETURN(model::Logits next,
                           model_.forward_prediction(batch_, hidden_.data(), cache_, pool));
    take_drafts(next);
  }
}

}  // namespace ingot::engine
