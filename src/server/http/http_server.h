#pragma once
// The HTTP front end: an acceptor and one C++20 coroutine per connection
// on a single-threaded io_context. Limits (header size and time, body size,
// content type, API key, route and method) are enforced here, before a
// route handler runs; handlers never block the io thread.

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <set>
#include <string_view>

#include "server/http/browser_boundary.h"
#include "server/http/http_options.h"
#include "server/http/router.h"
#include "util/status.h"

namespace ingot::server {

class HttpServer {
 public:
  HttpServer(HttpOptions options, Router router);
  ~HttpServer();

  // Binds and listens; an error names the address (port in use, ...).
  Status listen();
  uint16_t port() const { return bound_port_; }

  // Runs the io_context on the calling thread until shutdown completes.
  void run();

  // Thread-safe. Stops accepting, closes idle connections, and lets
  // in-flight requests finish for up to `grace`; then calls
  // `cancel_in_flight` and closes every connection.
  void shutdown(std::chrono::milliseconds grace, std::function<void()> cancel_in_flight);

  asio::io_context& io_context() { return io_; }
  // The routes, when what they serve needs the io_context first; before
  // run().
  void set_router(Router router) { router_ = std::move(router); }

  // Called on the I/O thread with every answer's status and the route it
  // matched, named by its pattern (`/v1/responses/{id}`, so that ids never
  // become labels), or "unmatched" when none did, and whether its client
  // was dropped for not reading. Set before run().
  using AnswerObserver =
      std::function<void(std::string_view route, int status, bool dropped_as_slow)>;
  void on_answered(AnswerObserver observer) { answered_ = std::move(observer); }

 private:
  struct Connection;

  asio::awaitable<void> accept_loop();
  asio::awaitable<void> make_room();
  asio::awaitable<void> relieve_descriptor_shortage();
  asio::awaitable<void> wait_for_a_close(asio::steady_timer::time_point deadline);
  bool close_oldest_idle_connection();
  asio::awaitable<void> serve_connection(tcp::socket socket);
  asio::awaitable<bool> serve_one(Connection& connection, beast::flat_buffer& buffer);
  // Answers an error, then discards what the client still sends (lingering
  // close) and leaves the connection to be closed. Arguments are
  // taken by value: a coroutine must own what it uses across suspensions.
  asio::awaitable<void> reject(beast::tcp_stream& stream, unsigned version, ApiError error,
                               std::vector<std::pair<std::string, std::string>> headers = {},
                               ErrorDialect dialect = ErrorDialect::kOpenAI);
  using Headers = std::vector<std::pair<std::string, std::string>>;
  std::optional<ApiError> refuse_from_browser(const http::fields& header, Headers& cors) const;
  asio::awaitable<void> answer_preflight(beast::tcp_stream& stream,
                                         const http::request<http::string_body>& header,
                                         Headers cors);
  ApiError body_too_large() const;
  bool carries_key(const http::fields& header) const;
  std::optional<ApiError> refuse_early(const Router::Match& match,
                                       const http::request_parser<http::string_body>& parser);
  void count_answer(const Router::Match& match, int status, bool dropped_as_slow = false) const;
  void close_idle_connections();
  void close_all_connections();

  HttpOptions options_;
  Router router_;
  asio::io_context io_{1};
  tcp::acceptor acceptor_{io_};
  uint16_t bound_port_ = 0;
  size_t max_connections_ = 0;
  BrowserPolicy browser_;
  // Woken when a connection closes: the accept loop waits on it for room.
  asio::steady_timer connection_closed_{io_};
  bool short_of_descriptors_ = false;
  bool stopping_ = false;
  std::set<Connection*> connections_;
  std::unique_ptr<asio::steady_timer> grace_timer_;
  AnswerObserver answered_;
};

}  // namespace ingot::server
