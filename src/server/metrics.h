#pragma once
// Counters and histograms exposed at GET /metrics in Prometheus' text
// format. Updated from the io thread; read at scrape time.

#include <cstdint>
#include <map>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/engine.h"

namespace ingot::server {

class Histogram {
 public:
  explicit Histogram(std::vector<double> upper_bounds);
  void observe(double value);
  void render(std::string& out, const std::string& name, const std::string& help) const;

 private:
  std::vector<double> bounds_;
  std::vector<uint64_t> counts_;  // per bucket, not cumulative
  double sum_ = 0;
  uint64_t count_ = 0;
};

// One metric family: its HELP and TYPE lines, then a sample per model,
// labelled {model="..."} (no label when the model is empty); nothing when
// there are no samples.
struct ModelSample {
  std::string_view model;
  double value;
};
void render_family(std::string& out, std::string_view name, std::string_view type,
                   std::string_view help, std::span<const ModelSample> samples);

class Metrics {
 public:
  Metrics();

  void count_request(const std::string& route, int status);
  void add_tokens(int64_t prompt, int64_t completion);
  void observe_time_to_first_token(double seconds);
  void observe_time_per_token(double seconds);
  void count_cancelled();
  void count_slow_client_dropped();
  // One /v1/embeddings request of `inputs` inputs.
  void count_embeddings(int64_t inputs);
  // One /v1/rerank request of `documents` documents.
  void count_reranked(int64_t documents);

  // The LoRA adapters loaded (their model names), for the info gauge the
  // Kubernetes inference gateway reads; its time moves only when they
  // change.
  void set_lora_adapters(std::vector<std::string> names);

  std::string render(const engine::EngineStats& engine) const;
  // Several models' engines (serve --models): each engine series once per
  // model, labelled by it; `extra` is more series, rendered whole.
  struct ModelEngineStats {
    std::string model;  // empty: no label (one model)
    engine::EngineStats stats;
  };
  std::string render(std::span<const ModelEngineStats> engines,
                     const std::string& extra = std::string()) const;

 private:
  void render_lora_info(std::string& out) const;
  void render_engines(std::string& out, std::span<const ModelEngineStats> engines) const;

  mutable std::mutex mutex_;
  std::map<std::pair<std::string, int>, uint64_t> requests_;
  uint64_t prompt_tokens_ = 0;
  uint64_t completion_tokens_ = 0;
  uint64_t cancelled_ = 0;
  uint64_t slow_clients_dropped_ = 0;
  uint64_t embedding_requests_ = 0;
  uint64_t embedding_inputs_ = 0;
  uint64_t rerank_requests_ = 0;
  uint64_t rerank_documents_ = 0;
  std::vector<std::string> lora_adapters_;
  double lora_adapters_changed_ = 0;  // seconds since the epoch
  Histogram time_to_first_token_;
  Histogram time_per_token_;
};

}  // namespace ingot::server
