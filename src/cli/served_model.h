#pragma once
// One model as `ingot serve` runs it: the file loaded, its engine started,
// the context the routes read and the routes bound to it. `serve` makes one
// at start, or one per model a request names with --models.

#include <cstdint>
#include <memory>
#include <string>

#include "cli/loaded_model.h"
#include "cli/serve_options.h"
#include "engine/engine.h"
#include "server/http/router.h"
#include "server/metrics.h"
#include "server/models/model_registry.h"
#include "server/prompt_preparation.h"
#include "server/responses/response_store.h"
#include "server/serving_context.h"
#include "util/status.h"

namespace ingot::cli {

// What every served model shares: the metrics, the prompt pool and the
// stored responses.
struct SharedServing {
  server::Metrics* metrics = nullptr;
  server::PromptPool* prompts = nullptr;
  std::shared_ptr<server::responses::ResponseStore> responses;
};

class ServedInstance final : public server::ServedModel {
 public:
  ~ServedInstance() override {
    if (engine) engine->stop();
  }
  server::ServingContext& context() override { return serving; }
  const server::Router& routes() const override { return router; }
  uint64_t memory_bytes() const override { return bytes; }

  LoadedModel loaded;
  std::unique_ptr<engine::Engine> engine;
  server::ServingContext serving;
  server::Router router;
  uint64_t bytes = 0;  // weights and KV cache
};

// The model at `path` loaded, its engine started, served under `id`. A bad
// flag for this model (--logit-bias, --reranking, --lora) is an
// invalid_argument error.
Result<std::unique_ptr<ServedInstance>> serve_model(const ServeOptions& options,
                                                    const std::string& path, const std::string& id,
                                                    const SharedServing& shared);

}  // namespace ingot::cli
