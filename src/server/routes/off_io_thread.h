#pragma once
// Work too long for the I/O thread (parsing a large body, rendering,
// tokenizing) runs on the context's prompt pool, and the route resumes on
// its exchange's executor when it is done.

#include <type_traits>
#include <utility>

#include "server/http/http_exchange.h"
#include "server/serving_context.h"

namespace ingot::server {

// Runs `work` on the context's prompt pool and resumes on the exchange's
// executor; inline where there is no pool.
template <class Work>
asio::awaitable<std::invoke_result_t<Work>> off_io_thread(ServingContext& context,
                                                          HttpExchange& exchange, Work work) {
  if (context.prompts == nullptr) co_return work();
  co_return co_await context.prompts->run(exchange.stream().get_executor(), std::move(work));
}

}  // namespace ingot::server
