#include "server/http/http_server.h"

#include <spdlog/spdlog.h>
#include <sys/resource.h>

#include <algorithm>
#include <limits>

#include "server/http/bearer_auth.h"
#include "server/http/browser_boundary.h"
#include "server/http/lingering_close.h"

namespace ingot::server {
namespace {

constexpr auto kBodyTimeout = std::chrono::seconds(60);
// Out of descriptors with no idle connection to close, the accept loop
// tries again after this long (or as soon as a connection closes).
constexpr auto kDescriptorBackoff = std::chrono::milliseconds(100);

// The connections a server holds at once: as asked, or what the descriptor
// limit leaves beside those the server keeps for itself (the model's file,
// logs, the prompt cache's files, the event loop's own).
size_t connection_capacity(size_t requested) {
  if (requested > 0) return requested;
  constexpr rlim_t kReserved = 64;
  constexpr rlim_t kFewest = 8;
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return 65'536;
  return size_t(std::max(limit.rlim_cur > kReserved ? limit.rlim_cur - kReserved : 0, kFewest));
}

// A body the parser could not read (a bad chunk size, say), as against one
// cut short or timed out, whose client is no longer there to be answered.
bool malformed_body(const boost::system::error_code& ec) {
  return ec && ec.category() == http::make_error_code(http::error::bad_chunk).category() &&
         ec != http::error::partial_message && ec != http::error::end_of_stream;
}

bool out_of_descriptors(const boost::system::error_code& ec) {
  return ec == asio::error::no_descriptors || ec == asio::error::no_buffer_space ||
         ec == asio::error::no_memory || ec == boost::system::errc::too_many_files_open_in_system;
}

bool is_json_content_type(std::string_view value) {
  std::string_view media = value.substr(0, value.find(';'));
  while (!media.empty() && media.back() == ' ') media.remove_suffix(1);
  return beast::iequals(beast::string_view(media.data(), media.size()), "application/json");
}

// A header's value, empty when the request has none.
template <class Name>
std::string_view field_text(const http::fields& fields, Name name) {
  auto it = fields.find(name);
  if (it == fields.end()) return {};
  return {it->value().data(), it->value().size()};
}

// Whether a Transfer-Encoding names chunked and nothing else.
bool only_chunked(beast::string_view value) {
  while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.remove_suffix(1);
  while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
  return beast::iequals(value, "chunked");
}

void log_access(const HttpExchange& exchange, std::string_view method, const AccessRecord& record) {
  auto elapsed = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() -
                                                           exchange.started());
  spdlog::info(
      "access method={} route={} status={} prompt_tokens={} completion_tokens={} "
      "ttft_ms={:.1f} total_ms={:.1f} cancelled={}",
      method, record.route, record.status, record.prompt_tokens, record.completion_tokens,
      record.time_to_first_token_ms, elapsed.count(), record.cancelled);
}

}  // namespace

struct HttpServer::Connection {
  beast::tcp_stream stream;
  bool busy = false;
  std::chrono::steady_clock::time_point idle_since = std::chrono::steady_clock::now();

  void become_idle() {
    busy = false;
    idle_since = std::chrono::steady_clock::now();
  }
};

HttpServer::HttpServer(HttpOptions options, Router router)
    : options_(std::move(options)), router_(std::move(router)) {}

HttpServer::~HttpServer() = default;

Status HttpServer::listen() {
  boost::system::error_code ec;
  auto address = asio::ip::make_address(options_.host, ec);
  if (ec) return invalid_argument("'" + options_.host + "' is not an IP address");
  tcp::endpoint endpoint(address, options_.port);
  std::string where = options_.host + ":" + std::to_string(options_.port);
  acceptor_.open(endpoint.protocol(), ec);
  if (!ec) acceptor_.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) acceptor_.bind(endpoint, ec);
  if (!ec) acceptor_.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) return Error(ErrorKind::kIo, "cannot listen on " + where + ": " + ec.message());
  bound_port_ = acceptor_.local_endpoint().port();
  max_connections_ = connection_capacity(options_.max_connections);
  browser_ = {is_loopback_address(options_.host), options_.allowed_hosts, options_.cors_origins};
  asio::co_spawn(io_, accept_loop(), asio::detached);
  return {};
}

void HttpServer::run() {
  io_.run();
}

asio::awaitable<void> HttpServer::accept_loop() {
  for (;;) {
    co_await make_room();
    if (stopping_) co_return;
    boost::system::error_code ec;
    tcp::socket socket =
        co_await acceptor_.async_accept(asio::redirect_error(asio::use_awaitable, ec));
    if (stopping_) co_return;
    if (out_of_descriptors(ec)) {
      co_await relieve_descriptor_shortage();
      continue;
    }
    if (ec) continue;  // a failed accept must not stop the server
    short_of_descriptors_ = false;
    asio::co_spawn(io_, serve_connection(std::move(socket)), asio::detached);
  }
}

// At the cap, the oldest idle connection closes to make room; with none
// idle, the next connection waits in the listen backlog until one closes.
asio::awaitable<void> HttpServer::make_room() {
  while (!stopping_ && connections_.size() >= max_connections_) {
    close_oldest_idle_connection();
    // A close wakes the loop; the deadline only bounds a wait whose close
    // was missed (a connection cancelled between two of its reads).
    co_await wait_for_a_close(asio::steady_timer::clock_type::now() + std::chrono::seconds(1));
  }
}

// The pending connection stays in the backlog, so accepting again at once
// would fail again at once: an idle connection gives its descriptor back,
// or the loop waits a little.
asio::awaitable<void> HttpServer::relieve_descriptor_shortage() {
  if (!short_of_descriptors_) {
    spdlog::warn("out of file descriptors with {} connections open; closing idle ones",
                 connections_.size());
    short_of_descriptors_ = true;
  }
  close_oldest_idle_connection();
  co_await wait_for_a_close(asio::steady_timer::clock_type::now() + kDescriptorBackoff);
}

asio::awaitable<void> HttpServer::wait_for_a_close(asio::steady_timer::time_point deadline) {
  connection_closed_.expires_at(deadline);
  boost::system::error_code ignored;
  co_await connection_closed_.async_wait(asio::redirect_error(asio::use_awaitable, ignored));
}

bool HttpServer::close_oldest_idle_connection() {
  Connection* oldest = nullptr;
  for (Connection* connection : connections_) {
    if (!connection->busy && (!oldest || connection->idle_since < oldest->idle_since)) {
      oldest = connection;
    }
  }
  if (oldest) oldest->stream.cancel();
  return oldest != nullptr;
}

asio::awaitable<void> HttpServer::serve_connection(tcp::socket socket) {
  Connection connection{beast::tcp_stream(std::move(socket))};
  connections_.insert(&connection);
  beast::flat_buffer buffer;
  while (!stopping_ && co_await serve_one(connection, buffer)) {
  }
  boost::system::error_code ignored;
  connection.stream.socket().shutdown(tcp::socket::shutdown_both, ignored);
  connection.stream.socket().close(ignored);
  connections_.erase(&connection);
  connection_closed_.cancel();
  if (stopping_ && connections_.empty() && grace_timer_) grace_timer_->cancel();
}

asio::awaitable<bool> HttpServer::serve_one(Connection& connection, beast::flat_buffer& buffer) {
  beast::tcp_stream& stream = connection.stream;
  http::request_parser<http::string_body> parser;
  parser.header_limit(static_cast<uint32_t>(options_.max_header_bytes));
  // The declared length is checked by refuse_early, after the route and the
  // API key: a client without the key learns nothing of the limits.
  parser.body_limit(std::numeric_limits<std::uint64_t>::max());

  boost::system::error_code ec;
  stream.expires_after(options_.header_timeout);
  co_await http::async_read_header(stream, buffer, parser,
                                   asio::redirect_error(asio::use_awaitable, ec));
  // Named locals, not temporaries, go into co_await: GCC 12 mishandles
  // temporaries that live across a suspension.
  if (ec == http::error::header_limit) {
    ApiError error{431, "invalid_request_error",
                   "The request header is larger than the server accepts.", std::nullopt,
                   "header_too_large"};
    count_answer({}, error.status);
    co_await reject(stream, 11, std::move(error));
    co_return false;
  }
  if (ec == http::error::end_of_stream || ec == beast::error::timeout ||
      ec == asio::error::operation_aborted || ec == asio::error::eof ||
      ec == asio::error::connection_reset) {
    co_return false;
  }
  if (ec) {
    ApiError error = invalid_request("Malformed HTTP request: " + ec.message());
    count_answer({}, error.status);
    co_await reject(stream, 11, std::move(error));
    co_return false;
  }

  connection.busy = true;
  const auto& header = parser.get();
  std::string_view target(header.target().data(), header.target().size());
  std::string_view path = target.substr(0, target.find('?'));
  Headers cors;
  if (auto refusal = refuse_from_browser(header, cors)) {
    count_answer({}, refusal->status);
    connection.become_idle();
    co_await reject(stream, header.version(), std::move(*refusal), {}, dialect_for_path(path));
    co_return false;
  }
  if (!cors.empty() && header.method() == http::verb::options) {
    co_await answer_preflight(stream, header, std::move(cors));
    connection.become_idle();
    co_return parser.is_done() && header.keep_alive();
  }
  Router::Match match = router_.match(header.method(), path);
  if (auto refusal = refuse_early(match, parser)) {
    Headers extra = cors;
    if (refusal->status == 405) extra.emplace_back("Allow", match.allowed);
    if (refusal->status == 401) extra.emplace_back("WWW-Authenticate", "Bearer");
    ApiError error = std::move(*refusal);
    count_answer(match, error.status);
    connection.become_idle();  // nothing runs: a shutdown need not wait out the lingering close
    co_await reject(stream, header.version(), std::move(error), std::move(extra),
                    dialect_for_path(path));
    co_return false;  // the body was not read: this connection cannot carry another request
  }

  parser.body_limit(options_.max_body_bytes);
  stream.expires_after(kBodyTimeout);
  co_await http::async_read(stream, buffer, parser, asio::redirect_error(asio::use_awaitable, ec));
  if (ec == http::error::body_limit) {
    ApiError error = body_too_large();
    count_answer(match, error.status);
    co_await reject(stream, header.version(), std::move(error), {}, dialect_for_path(path));
    co_return false;
  }
  if (malformed_body(ec)) {
    ApiError error = invalid_request("Malformed HTTP request body: " + ec.message());
    count_answer(match, error.status);
    co_await reject(stream, header.version(), std::move(error), {}, dialect_for_path(path));
    co_return false;
  }
  if (ec) co_return false;  // truncated or timed out: nobody to answer
  stream.expires_never();

  HttpExchange exchange(stream, parser.release(), options_.slow_client_timeout);
  exchange.set_authorized(carries_key(exchange.request()));
  for (auto& [name, value] : cors) exchange.add_header(name, value);
  exchange.record().route = std::string(path);
  std::string method(http::to_string(exchange.request().method()));
  try {
    co_await match.route->handler(exchange);
  } catch (const std::exception& e) {
    spdlog::error("handler for {} threw: {}", path, e.what());
  }
  if (!exchange.responded()) {
    if (exchange.record().cancelled) {
      // The client left before its answer: nothing to write, and nothing
      // failed (nginx's 499).
      exchange.record().status = 499;
    } else {
      ApiError error{500, "server_error", "The server failed to answer.", std::nullopt, "internal"};
      co_await exchange.respond_error(error);
    }
  }
  log_access(exchange, method, exchange.record());
  count_answer(match, exchange.record().status, exchange.record().dropped_as_slow);
  connection.become_idle();
  co_return exchange.keep_alive() && exchange.record().status != 499;
}

void HttpServer::count_answer(const Router::Match& match, int status, bool dropped_as_slow) const {
  if (!answered_) return;
  answered_(match.route != nullptr ? match.route->path : "unmatched", status, dropped_as_slow);
}

std::optional<ApiError> HttpServer::refuse_early(
    const Router::Match& match, const http::request_parser<http::string_body>& parser) {
  const auto& header = parser.get();
  if (!match.path_known) {
    return ApiError{404, "invalid_request_error", "No route " + std::string(header.target()) + ".",
                    std::nullopt, "not_found"};
  }
  if (match.route == nullptr) {
    return ApiError{
        405, "invalid_request_error",
        std::string(header.method_string()) + " is not allowed here; use " + match.allowed + ".",
        std::nullopt, "method_not_allowed"};
  }
  if (match.route->requires_auth && !carries_key(header)) {
    const bool sent_one = header.find(http::field::authorization) != header.end() ||
                          header.find("x-api-key") != header.end();
    return ApiError{401, "authentication_error",
                    sent_one
                        ? "Incorrect API key."
                        : "Missing API key: send 'Authorization: Bearer KEY' or 'x-api-key: KEY'.",
                    std::nullopt, "invalid_api_key"};
  }
  if (auto length = parser.content_length(); length && *length > options_.max_body_bytes) {
    return body_too_large();
  }
  // RFC 9112: a transfer coding the server does not know (gzip before
  // chunked) is 501; reading the coded bytes as JSON would misread them.
  if (auto coding = header.find(http::field::transfer_encoding);
      coding != header.end() && !only_chunked(coding->value())) {
    return ApiError{501, "invalid_request_error",
                    "Transfer-Encoding '" + std::string(coding->value()) +
                        "' is not supported: send the body as is or chunked.",
                    std::nullopt, "unsupported_transfer_encoding"};
  }
  if (auto coding = header.find(http::field::content_encoding);
      coding != header.end() && !beast::iequals(coding->value(), "identity")) {
    return ApiError{415, "invalid_request_error",
                    "Content-Encoding '" + std::string(coding->value()) +
                        "' is not supported: send the body uncompressed.",
                    std::nullopt, "unsupported_media_type"};
  }
  if (match.route->json_body) {
    auto it = header.find(http::field::content_type);
    if (it == header.end() ||
        !is_json_content_type(std::string_view(it->value().data(), it->value().size()))) {
      return ApiError{415, "invalid_request_error",
                      "The request body must be sent as 'Content-Type: application/json'.",
                      std::nullopt, "unsupported_media_type"};
    }
  }
  return std::nullopt;
}

// A request a browser sent for a page the server does not serve: a Host
// that names another site while the server listens on loopback (DNS
// rebinding), or an Origin the server does not allow. For an allowed
// Origin, `cors` gets the headers that let its page read the answer.
std::optional<ApiError> HttpServer::refuse_from_browser(const http::fields& header,
                                                        Headers& cors) const {
  const std::string_view host = field_text(header, http::field::host);
  if (!host_allowed(browser_, host)) {
    return ApiError{403, "invalid_request_error",
                    "The Host '" + std::string(host) +
                        "' does not name this server; start it with --allowed-host to allow it.",
                    std::nullopt, "host_not_allowed"};
  }
  if (header.find(http::field::origin) == header.end()) return std::nullopt;
  const std::string_view origin = field_text(header, http::field::origin);
  if (!origin_allowed(browser_, origin, host)) {
    return ApiError{403, "invalid_request_error",
                    "Pages of '" + std::string(origin) +
                        "' may not call this server; start it with --cors-origin to allow them.",
                    std::nullopt, "origin_not_allowed"};
  }
  cors = {{"Access-Control-Allow-Origin", std::string(origin)},
          {"Vary", "Origin"},
          {"Access-Control-Expose-Headers", "Retry-After, x-ingot-relaxed, x-ingot-dropped-tools"}};
  return std::nullopt;
}

// A CORS preflight from an allowed origin: any method and the headers it
// asks for (Authorization, Content-Type, the SDKs' own).
asio::awaitable<void> HttpServer::answer_preflight(beast::tcp_stream& stream,
                                                   const http::request<http::string_body>& header,
                                                   Headers cors) {
  http::response<http::empty_body> response{http::status::no_content, header.version()};
  response.set(http::field::server, "ingot");
  for (auto& [name, value] : cors) response.set(name, value);
  response.set(http::field::access_control_allow_methods, "GET, HEAD, POST, DELETE, OPTIONS");
  if (auto asked = header.find(http::field::access_control_request_headers);
      asked != header.end()) {
    response.set(http::field::access_control_allow_headers, asked->value());
  }
  response.set(http::field::access_control_max_age, "600");
  response.keep_alive(header.keep_alive());
  boost::system::error_code ec;
  stream.expires_after(std::chrono::seconds(10));
  co_await http::async_write(stream, response, asio::redirect_error(asio::use_awaitable, ec));
  stream.expires_never();
}

// Whether the request carries the server's key; every request does when
// the server has none. Anthropic's clients send it as x-api-key.
bool HttpServer::carries_key(const http::fields& header) const {
  if (!options_.api_key) return true;
  if (header.find(http::field::authorization) != header.end()) {
    return bearer_matches(field_text(header, http::field::authorization), *options_.api_key);
  }
  return header.find("x-api-key") != header.end() &&
         constant_time_equal(field_text(header, "x-api-key"), *options_.api_key);
}

ApiError HttpServer::body_too_large() const {
  return ApiError{
      413, "invalid_request_error",
      "The request body is larger than " + std::to_string(options_.max_body_bytes) + " bytes.",
      std::nullopt, "request_too_large"};
}

asio::awaitable<void> HttpServer::reject(beast::tcp_stream& stream, unsigned version,
                                         ApiError error,
                                         std::vector<std::pair<std::string, std::string>> headers,
                                         ErrorDialect dialect) {
  http::response<http::string_body> response{static_cast<http::status>(error.status_in(dialect)),
                                             version};
  response.set(http::field::server, "ingot");
  response.set(http::field::content_type, "application/json");
  for (auto& [name, value] : headers) response.set(name, value);
  response.keep_alive(false);
  response.body() = error.to_json(dialect);
  response.prepare_payload();
  boost::system::error_code ec;
  stream.expires_after(std::chrono::seconds(10));
  co_await http::async_write(stream, response, asio::redirect_error(asio::use_awaitable, ec));
  spdlog::info("access route=- status={} refused=\"{}\"", error.status, error.message);
  if (!ec) co_await lingering_close(stream, options_.linger);
}

void HttpServer::shutdown(std::chrono::milliseconds grace, std::function<void()> cancel_in_flight) {
  asio::post(io_, [this, grace, cancel = std::move(cancel_in_flight)]() mutable {
    if (stopping_) return;
    stopping_ = true;
    boost::system::error_code ignored;
    acceptor_.close(ignored);
    connection_closed_.cancel();  // the accept loop may be waiting for room
    close_idle_connections();
    if (connections_.empty()) return;
    grace_timer_ = std::make_unique<asio::steady_timer>(io_, grace);
    grace_timer_->async_wait([this, cancel = std::move(cancel)](boost::system::error_code ec) {
      if (ec == asio::error::operation_aborted || connections_.empty()) return;
      spdlog::warn("shutdown: {} request(s) still running after the grace period; cancelling",
                   connections_.size());
      if (cancel) cancel();
      close_all_connections();
    });
  });
}

void HttpServer::close_idle_connections() {
  for (Connection* connection : connections_) {
    if (!connection->busy) connection->stream.cancel();
  }
}

void HttpServer::close_all_connections() {
  for (Connection* connection : connections_) {
    boost::system::error_code ignored;
    connection->stream.socket().shutdown(tcp::socket::shutdown_both, ignored);
    connection->stream.cancel();
  }
}

}  // namespace ingot::server
