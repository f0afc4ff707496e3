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
  if (names == lora_adapters_ && lora_adapters_changed_ != 0) return;
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

namespace {

// A series read from each engine's stats.
struct EngineSeries {
  const char* name;
  const char* type;
  const char* help;
  double (*value)(const engine::EngineStats&);
  bool disk_only = false;  // only when --prompt-cache is in use
};

const EngineSeries kEngineSeries[] = {
    {"ingot_prefix_cache_hits_total", "counter", "Requests that reused cached prompt tokens.",
     [](const engine::EngineStats& e) { return double(e.prefix_cache_hits); }},
    {"ingot_prefix_cache_tokens_total", "counter", "Prompt tokens reused from the cache.",
     [](const engine::EngineStats& e) { return double(e.prefix_tokens_reused); }},
    {"ingot_kv_cache_block_evictions_total", "counter",
     "Cached prefix blocks taken back for new positions.",
     [](const engine::EngineStats& e) { return double(e.kv_block_evictions); }},
    {"ingot_draft_tokens_total", "counter", "Drafted tokens checked (--mtp).",
     [](const engine::EngineStats& e) { return double(e.drafted_tokens); }},
    {"ingot_draft_tokens_accepted_total", "counter", "Drafted tokens accepted (--mtp).",
     [](const engine::EngineStats& e) { return double(e.accepted_drafts); }},
    {"ingot_requests_active", "gauge", "Requests holding a slot.",
     [](const engine::EngineStats& e) { return double(e.active); }},
    {"ingot_requests_paused", "gauge",
     "Requests waiting for their reader: each holds its slot and at most its event channel.",
     [](const engine::EngineStats& e) { return double(e.paused); }},
    {"ingot_requests_queued", "gauge", "Requests waiting for a slot.",
     [](const engine::EngineStats& e) { return double(e.queued); }},
    {"ingot_slots", "gauge", "Slots (parallel sequences).",
     [](const engine::EngineStats& e) { return double(e.slots); }},
    {"ingot_kv_cache_cells_used", "gauge", "KV cache cells holding tokens.",
     [](const engine::EngineStats& e) { return double(e.kv_cells_used); }},
    {"ingot_kv_cache_cells_total", "gauge", "KV cache cells in all.",
     [](const engine::EngineStats& e) { return double(e.kv_cells_total); }},
    {"ingot_kv_cache_blocks_cached", "gauge", "Full KV blocks a new request may start from.",
     [](const engine::EngineStats& e) { return double(e.kv_blocks_cached); }},
    {"ingot_kv_cache_usage_ratio", "gauge", "KV cache cells holding tokens, as a fraction of all.",
     [](const engine::EngineStats& e) {
       return e.kv_cells_total > 0 ? double(e.kv_cells_used) / double(e.kv_cells_total) : 0.0;
     }},
    {"ingot_prompt_cache_disk_blocks_written_total", "counter",
     "KV blocks written to the --prompt-cache directory.",
     [](const engine::EngineStats& e) { return double(e.disk.blocks_written); }, true},
    {"ingot_prompt_cache_disk_blocks_read_total", "counter",
     "KV blocks read back from the --prompt-cache directory.",
     [](const engine::EngineStats& e) { return double(e.disk.blocks_read); }, true},
    {"ingot_prompt_cache_disk_files_rejected_total", "counter",
     "Corrupt, truncated or foreign --prompt-cache files deleted unread.",
     [](const engine::EngineStats& e) { return double(e.disk.files_rejected); }, true},
    {"ingot_prompt_cache_disk_evictions_total", "counter",
     "--prompt-cache files deleted to keep the directory within --prompt-cache-size.",
     [](const engine::EngineStats& e) { return double(e.disk.files_evicted); }, true},
    {"ingot_prompt_cache_disk_bytes", "gauge",
     "Bytes of KV block files in the --prompt-cache directory.",
     [](const engine::EngineStats& e) { return double(e.disk.bytes); }, true},
};

// An integer as an integer, a fraction with six places.
std::string sample_value(double value) {
  if (value == double(int64_t(value))) return fmt::format("{}", int64_t(value));
  return fmt::format("{:.6f}", value);
}

}  // namespace

void render_family(std::string& out, std::string_view name, std::string_view type,
                   std::string_view help, std::span<const ModelSample> samples) {
  if (samples.empty()) return;
  out += fmt::format("# HELP {} {}\n# TYPE {} {}\n", name, help, name, type);
  for (const ModelSample& sample : samples) {
    const std::string labels =
        sample.model.empty() ? std::string() : fmt::format("{{model=\"{}\"}}", sample.model);
    out += fmt::format("{}{} {}\n", name, labels, sample_value(sample.value));
  }
}

void Metrics::render_engines(std::string& out, std::span<const ModelEngineStats> engines) const {
  std::vector<ModelSample> samples;
  for (const EngineSeries& series : kEngineSeries) {
    samples.clear();
    for (const ModelEngineStats& engine : engines) {
      if (series.disk_only && !engine.stats.disk_cache) continue;
      samples.push_back({engine.model, series.value(engine.stats)});
    }
    render_family(out, series.name, series.type, series.help, samples);
  }
}

std::string Metrics::render(const engine::EngineStats& engine) const {
  const ModelEngineStats one{std::string(), engine};
  return render(std::span(&one, 1));
}

std::string Metrics::render(std::span<const ModelEngineStats> engines,
                            const std::string& extra) const {
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
  render_engines(out, engines);
  render_lora_info(out);
  out += extra;
  time_to_first_token_.render(out, "ingot_time_to_first_token_seconds",
                              "Time from request to first generated token.");
  time_per_token_.render(out, "ingot_time_per_output_token_seconds",
                         "Decode time per generated token after the first.");
  return out;
}

}  // namespace ingot::server
