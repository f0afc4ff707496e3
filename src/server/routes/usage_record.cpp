#include "server/routes/usage_record.h"

namespace ingot::server {

void record_usage(HttpExchange& exchange, ServingContext& context, const engine::Usage& usage) {
  exchange.record().prompt_tokens = usage.prompt_tokens;
  exchange.record().completion_tokens = usage.completion_tokens;
  exchange.record().time_to_first_token_ms = usage.time_to_first_token_ms;
  if (context.metrics == nullptr) return;
  context.metrics->add_tokens(usage.prompt_tokens, usage.completion_tokens);
  if (usage.completion_tokens > 0) {
    context.metrics->observe_time_to_first_token(usage.time_to_first_token_ms / 1000.0);
  }
  if (usage.completion_tokens > 1) {
    double decode_ms = usage.total_ms - usage.time_to_first_token_ms;
    context.metrics->observe_time_per_token(decode_ms / 1000.0 /
                                            static_cast<double>(usage.completion_tokens - 1));
  }
}

void record_cancelled(HttpExchange& exchange, ServingContext& context) {
  exchange.record().cancelled = true;
  if (context.metrics) context.metrics->count_cancelled();
}

}  // namespace ingot::server
