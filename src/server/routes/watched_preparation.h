#pragma once
// A generation request's preparation (rendering, tokenizing, compiling its
// grammar) on the prompt pool, watched from the I/O thread. A grammar the
// cache lacks may take long to compile: the request steps out of the
// admission order meanwhile, so that the requests behind it are not held
// up, and rejoins at the back; a client that leaves stops the compile.

#include <type_traits>
#include <utility>

#include "server/admission_order.h"
#include "server/grammar_cache.h"
#include "server/http/departure_watch.h"
#include "server/routes/off_io_thread.h"

namespace ingot::server {

// Runs `work(watch)` on the prompt pool; `streamed` says whether a client
// that half-closes still waits for the reply (departure_watch.h).
template <class Work>
asio::awaitable<std::invoke_result_t<Work, const GrammarCompileWatch&>> prepare_watched(
    ServingContext& context, HttpExchange& exchange, AdmissionOrder::Ticket& ticket, bool streamed,
    Work work) {
  DepartureWatch departure(
      exchange.stream().socket(),
      streamed ? DepartureWatch::EndOfInput::kLeftToWrites : DepartureWatch::EndOfInput::kLeaves);
  GrammarCompileWatch watch;
  watch.cancelled = &departure.gone();
  // Inline (no pool) nothing waits behind the work: there is no I/O thread
  // to let others on.
  if (context.prompts != nullptr) {
    // Posted before the work's own completion, so it runs before rejoin().
    watch.before_compile = [executor = exchange.stream().get_executor(), &ticket] {
      asio::post(executor, [&ticket] { ticket.step_aside(); });
    };
  }
  auto result = co_await off_io_thread(context, exchange, [&work, &watch] { return work(watch); });
  ticket.rejoin();
  co_return result;
}

}  // namespace ingot::server
