#include "server/metrics.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <chrono>

namespace ingot::server {

Histogram::Histogram(std::vector<double> upper_bounds)
    : bounds_(std::move(upper_bounds)), counts_(bounds_.size() + 1, 0) {}

void Histogram::observe(double value) {
  size_t bucket = 0;
  while (bucket < bounds_.size() && value > bounds_[bucket]) ++bucket;
  ++counts_[bucket];
  sum_ += value;
  ++count_;
}

void Histogram::render(std::string& out, const std::string& name, const std::string& help) const {
  out += fmt::format("# HELP {} {}\n# TYPE {} histogram\n", name, help, name);
  uint64_t cumulative = 0;
  for (size_t i = 0; i < bounds_.size(); ++i) {
    cumulative += counts_[i];
    out += fmt::format("{}_bucket{{le=\"{}\"}} {}\n", name, bounds_[i], cumulative);
  }
  cumulative += counts_.back();
  out += fmt::format("{}_bucket{{le=\"+Inf\"}} {}\n", name, cumulative);
  out += fmt::format("{}_sum {}\n{}_count {}\n", name, sum_, name, count_);
}

Metrics::Metrics()
    : time_to_first_token_({0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60}),
      time_per_token_({0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1}) {}

void Metrics::count_request(const std::string& route, int status) {
  std::lock_guard lock(mutex_);
  ++requests_[{route, status}];
}

void Metrics::add_tokens(int64_t prompt, int64_t completion) {
  std::lock_guard lock(mutex_);
  prompt_tokens_ += static_cast<uint64_t>(prompt);
  completion_tokens_ += static_cast<uint64_t>(completion);
}

void Metrics::observe_time_to_first_token(double seconds) {
  std::lock_guard lock(mutex_);
  time_to_first_token_.observe(seconds);
}

void Metrics::observe_time_per_token(double seconds) {
  std::lock_guard lock(mutex_);
  time_per_token_.observe(seconds);
}

void Metrics::count_cancelled() {
  std::lock_guard lock(mutex_);
  ++cancelled_;
}

void Metrics::count_slow_client_dropped() {
  std::lock_guard lock(mutex_);
  ++slow_clients_dropped_;
}

void Metrics::count_embeddings(int64_t inputs) {
  std::lock_guard lock(mutex_);
  ++embedding_requests_;
  embedding_inputs_ += static_cast<uint64_t>(inputs);
}

void Metrics::count_reranked(int64_t documents) {
  std::lock_guard lock(mutex_);
  ++rerank_requests_;
  rerank_documents_ += static_cast<uint64_t>(documents);
}

void Metrics::set_lora_adapters(std::vector<std::string> names) {
  const std::lock_guard lock(mutex_);
  lora_adapters_ = std::move(names);
  lora_adapters_changed_ =
      std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// The Gateway API Inference Extension's model-server protocol (vLLM's
// lora_requests_info): labels say which adapters are loaded and ready
// (every one ingot has: it loads them all at start), and the value when
// that last changed, so that a scraper keeps the newest.
void Metrics::render_lora_info(std::string& out) const {
  if (lora_adapters_.empty()) return;
  out +=
      "# HELP ingot_lora_requests_info LoRA adapters loaded (running_lora_adapters) and waiting to "
      "load; the value is when they last changed, in seconds since the epoch.\n"
      "# TYPE ingot_lora_requests_info gauge\n";
  out += fmt::format(
      "ingot_lora_requests_info{{max_lora=\"{}\",running_lora_adapters=\"{}\","
      "waiting_lora_adapters=\"\"}} {:.3f}\n",
      lora_adapters_.size(), fmt::join(lora_adapters_, ","), lora_adapters_changed_);
}

std::string Metrics::render(const engine::EngineStats& engine) const {
  std::lock_guard lock(mutex_);
  std::string out;
  out += "# HELP ingot_requests_total HTTP requests answered, by route and status.\n";
  out += "# TYPE ingot_requests_total counter\n";
  for (const auto& [key, count] : requests_) {
    out += fmt::format("ingot_requests_total{{route=\"{}\",status=\"{}\"}} {}\n", key.first,
                       key.second, count);
  }
  auto counter = [&](const char* name, const char* help, uint64_t value) {
    out += fmt::format("# HELP {} {}\n# TYPE {} counter\n{} {}\n", name, help, name, name, value);
  };
  auto gauge = [&](const char* name, const char* help, int64_t value) {
    out += fmt::format("# HELP {} {}\n# TYPE {} gauge\n{} {}\n", name, help, name, name, value);
  };
  counter("ingot_prompt_tokens_total", "Prompt tokens processed.", prompt_tokens_);
  counter("ingot_completion_tokens_total", "Completion tokens generated.", completion_tokens_);
  counter("ingot_requests_cancelled_total", "Generations cancelled by their client.", cancelled_);
  counter("ingot_slow_clients_dropped_total",
          "Clients dropped for reading none of their response for --slow-client-timeout.",
          slow_clients_dropped_);
  counter("ingot_embedding_requests_total", "/v1/embeddings requests answered.",
          embedding_requests_);
  counter("ingot_embedding_inputs_total", "Inputs embedded by /v1/embeddings.", embedding_inputs_);
  counter("ingot_rerank_requests_total", "/v1/rerank requests answered.", rerank_requests_);
  counter("ingot_rerank_documents_total", "Documents scored by /v1/rerank.", rerank_documents_);
  counter("ingot_prefix_cache_hits_total", "Requests that reused cached prompt tokens.",
          static_cast<uint64_t>(engine.prefix_cache_hits));
  counter("ingot_prefix_cache_tokens_total", "Prompt tokens reused from the cache.",
          static_cast<uint64_t>(engine.prefix_tokens_reused));
  counter("ingot_kv_cache_block_evictions_total",
          "Cached prefix blocks taken back for new positions.",
          static_cast<uint64_t>(engine.kv_block_evictions));
  counter("ingot_draft_tokens_total", "Drafted tokens checked (--mtp).",
          static_cast<uint64_t>(engine.drafted_tokens));
  counter("ingot_draft_tokens_accepted_total", "Drafted tokens accepted (--mtp).",
          static_cast<uint64_t>(engine.accepted_drafts));
  gauge("ingot_requests_active", "Requests holding a slot.", engine.active);
  gauge("ingot_requests_paused",
        "Requests waiting for their reader: each holds its slot and at most its event channel.",
        engine.paused);
  gauge("ingot_requests_queued", "Requests waiting for a slot.", engine.queued);
  gauge("ingot_slots", "Slots (parallel sequences).", engine.slots);
  gauge("ingot_kv_cache_cells_used", "KV cache cells holding tokens.", engine.kv_cells_used);
  gauge("ingot_kv_cache_cells_total", "KV cache cells in all.", engine.kv_cells_total);
  gauge("ingot_kv_cache_blocks_cached", "Full KV blocks a new request may start from.",
        engine.kv_blocks_cached);
  const double usage = engine.kv_cells_total > 0
                           ? double(engine.kv_cells_used) / double(engine.kv_cells_total)
                           : 0.0;
  out += fmt::format(
      "# HELP ingot_kv_cache_usage_ratio KV cache cells holding tokens, as a fraction of all.\n"
      "# TYPE ingot_kv_cache_usage_ratio gauge\ningot_kv_cache_usage_ratio {:.6f}\n",
      usage);
  render_lora_info(out);
  if (engine.disk_cache) {
    counter("ingot_prompt_cache_disk_blocks_written_total",
            "KV blocks written to the --prompt-cache directory.",
            static_cast<uint64_t>(engine.disk.blocks_written));
    counter("ingot_prompt_cache_disk_blocks_read_total",
            "KV blocks read back from the --prompt-cache directory.",
            static_cast<uint64_t>(engine.disk.blocks_read));
    counter("ingot_prompt_cache_disk_files_rejected_total",
            "Corrupt, truncated or foreign --prompt-cache files deleted unread.",
            static_cast<uint64_t>(engine.disk.files_rejected));
    counter("ingot_prompt_cache_disk_evictions_total",
            "--prompt-cache files deleted to keep the directory within --prompt-cache-size.",
            static_cast<uint64_t>(engine.disk.files_evicted));
    gauge("ingot_prompt_cache_disk_bytes",
          "Bytes of KV block files in the --prompt-cache directory.", engine.disk.bytes);
  }
  time_to_first_token_.render(out, "ingot_time_to_first_token_seconds",
                              "Time from request to first generated token.");
  time_per_token_.render(out, "ingot_time_per_output_token_seconds",
                         "Decode time per generated token after the first.");
  return out;
}

}  // namespace ingot::server
