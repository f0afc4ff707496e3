#include "server/routes/routes.h"

namespace ingot::server {

Router build_routes(ServingContext& context) {
  Router router;
  add_info_routes(router, context);
  add_chat_route(router, context);
  add_completion_route(router, context);
  add_embedding_routes(router, context);
  add_rerank_routes(router, context);
  add_lora_routes(router, context);
  add_tokenize_routes(router, context);
  add_messages_routes(router, context);
  add_responses_routes(router, context);
  add_index_route(router, context);
  return router;
}

}  // namespace ingot::server
