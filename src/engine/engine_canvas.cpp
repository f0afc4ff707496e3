#include <spdlog/spdlog.h>

#include <optional>

#include "engine/engine.h"

// A diffusion model's canvas step: the canvases of the slots whose prefix
// is in, run together in one pass after the step's causal batch (prompts
// and committed canvases), each slot's denoiser fed its rows.

namespace ingot::engine {

// Slots take turns when more canvases wait than one pass runs; a slot
// whose consumer has no room for an event sits the step out.
void Engine::denoise_canvases() {
  const int64_t canvas = model_.config().diffusion.canvas_length;
  const auto per_pass = size_t(canvases_per_pass(options_, canvas));
  canvas_batch_.clear();
  canvas_previous_.clear();
  canvas_slots_.clear();
  for (size_t k = 0; k < slots_.size() && canvas_slots_.size() < per_pass; ++k) {
    Slot& slot = slots_[(canvas_turn_ + k) % slots_.size()];
    if (!slot.denoising() || slot.room_for_events() == 0) continue;
    const std::span<const int32_t> tokens = slot.canvas();
    for (size_t i = 0; i < tokens.size(); ++i) {
      canvas_batch_.add(tokens[i], slot.position() + int64_t(i), slot.sequence(), true);
      canvas_previous_.push_back(slot.canvas_previous(int64_t(i)));
    }
    canvas_slots_.push_back(&slot);
  }
  canvas_turn_ = (canvas_turn_ + 1) % slots_.size();
  if (canvas_slots_.empty()) return;
  std::optional<SharedCompute::Turn> turn;
  if (options_.shared_compute) turn.emplace(options_.shared_compute->take_turn());
  Result<model::Logits> logits =
      model_.forward_canvas(canvas_batch_, canvas_previous_, cache_, pool_);
  if (!logits.ok()) {
    spdlog::error("canvas step failed: {}", logits.error().describe());
    fail_canvases(logits.error());
  } else {
    for (size_t k = 0; k < canvas_slots_.size(); ++k) {
      canvas_slots_[k]->take_canvas_step(logits->row(int64_t(k) * canvas), pool_, context_size_);
    }
  }
  publish_stats();
}

void Engine::fail_canvases(const Error& error) {
  for (Slot* slot : canvas_slots_) {
    slot->fail(error);
    cache_.drop(slot->sequence());
    slot->forget_cache();
  }
}

}  // namespace ingot::engine
