#pragma once
// The HTTP API: every route ingot serves, bound to a ServingContext.

#include "server/http/router.h"
#include "server/serving_context.h"

namespace ingot::server {

Router build_routes(ServingContext& context);

// Each group of routes adds itself.
void add_info_routes(Router& router, ServingContext& context);
void add_index_route(Router& router, const ServingContext& context);
void add_chat_route(Router& router, ServingContext& context);
void add_completion_route(Router& router, ServingContext& context);
void add_embedding_routes(Router& router, ServingContext& context);
void add_rerank_routes(Router& router, ServingContext& context);
void add_lora_routes(Router& router, ServingContext& context);
void add_tokenize_routes(Router& router, ServingContext& context);
void add_messages_routes(Router& router, ServingContext& context);
void add_responses_routes(Router& router, ServingContext& context);

}  // namespace ingot::server
