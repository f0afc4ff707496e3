#include "server/http/http_exchange.h"

#include <fmt/format.h>

#include <algorithm>

namespace ingot::server {

HttpExchange::HttpExchange(beast::tcp_stream& stream, HttpRequest request,
                           std::chrono::milliseconds slow_client_timeout)
    : stream_(stream),
      request_(std::move(request)),
      slow_client_timeout_(slow_client_timeout),
      keep_alive_(request_.keep_alive()) {}

std::string_view HttpExchange::path() const {
  std::string_view target(request_.target().data(), request_.target().size());
  return target.substr(0, target.find('?'));
}

std::string_view HttpExchange::header(http::field field) const {
  auto it = request_.find(field);
  if (it == request_.end()) return {};
  return {it->value().data(), it->value().size()};
}

asio::awaitable<void> HttpExchange::respond(
    http::status status, std::string body, std::string_view content_type,
    std::vector<std::pair<std::string, std::string>> headers) {
  http::response<http::string_body> response{status, request_.version()};
  response.set(http::field::server, "ingot");
  response.set(http::field::content_type, std::string(content_type));
  for (auto& [name, value] : extra_headers_) response.set(name, value);
  for (auto& [name, value] : headers) response.set(name, value);
  response.keep_alive(keep_alive_);
  response.body() = std::move(body);
  response.prepare_payload();
  responded_ = true;
  record_.status = static_cast<int>(status);
  boost::system::error_code ec;
  stream_.expires_after(slow_client_timeout_);
  if (request_.method() == http::verb::head) {
    // The head a GET would have had, its Content-Length included.
    http::response<http::empty_body> head{std::move(response.base())};
    co_await http::async_write(stream_, head, asio::redirect_error(asio::use_awaitable, ec));
  } else {
    co_await http::async_write(stream_, response, asio::redirect_error(asio::use_awaitable, ec));
  }
  wrote(ec);
}

asio::awaitable<void> HttpExchange::respond_json(http::status status, const nlohmann::json& body) {
  std::string text = body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  co_await respond(status, std::move(text), "application/json");
}

asio::awaitable<void> HttpExchange::respond_error(
    ApiError error, std::vector<std::pair<std::string, std::string>> headers) {
  const ErrorDialect dialect = dialect_for_path(path());
  std::string body = error.to_json(dialect);
  const int status = error.status_in(dialect);
  // Busy, overloaded or failing for now: the client may try again, and
  // its SDK waits as long as this says.
  const bool transient = status == 429 || status == 503 || status == 529;
  const bool says_when = std::any_of(headers.begin(), headers.end(), [](const auto& header) {
    return beast::iequals(header.first, "Retry-After");
  });
  if (transient && !says_when) headers.emplace_back("Retry-After", "1");
  co_await respond(static_cast<http::status>(status), std::move(body), "application/json",
                   std::move(headers));
}

asio::awaitable<bool> HttpExchange::begin_event_stream() {
  responded_ = streaming_ = true;
  record_.status = 200;
  chunked_ = request_.version() >= 11;
  if (!chunked_) keep_alive_ = false;
  std::string extra;
  for (const auto& [name, value] : extra_headers_) extra += fmt::format("{}: {}\r\n", name, value);
  std::string head = fmt::format(
      "HTTP/1.{} 200 OK\r\nServer: ingot\r\nContent-Type: text/event-stream; charset=utf-8\r\n"
      "Cache-Control: no-cache\r\n{}{}Connection: {}\r\n\r\n",
      chunked_ ? 1 : 0, chunked_ ? "Transfer-Encoding: chunked\r\n" : "", extra,
      keep_alive_ ? "keep-alive" : "close");
  co_return co_await write_raw(std::move(head));
}

asio::awaitable<bool> HttpExchange::send_event(std::string_view data, std::string_view event) {
  std::string payload = event.empty() ? fmt::format("data: {}\n\n", data)
                                      : fmt::format("event: {}\ndata: {}\n\n", event, data);
  if (!chunked_) co_return co_await write_raw(std::move(payload));
  co_return co_await write_raw(fmt::format("{:x}\r\n{}\r\n", payload.size(), payload));
}

asio::awaitable<bool> HttpExchange::send_comment(std::string_view text) {
  std::string payload = fmt::format(": {}\n\n", text);
  if (!chunked_) co_return co_await write_raw(std::move(payload));
  co_return co_await write_raw(fmt::format("{:x}\r\n{}\r\n", payload.size(), payload));
}

asio::awaitable<void> HttpExchange::end_event_stream() {
  if (chunked_) co_await write_raw("0\r\n\r\n");
}

asio::awaitable<bool> HttpExchange::write_raw(std::string data) {
  if (failed_) co_return false;
  boost::system::error_code ec;
  stream_.expires_after(slow_client_timeout_);
  co_await asio::async_write(stream_, asio::buffer(data),
                             asio::redirect_error(asio::use_awaitable, ec));
  wrote(ec);
  co_return !failed_;
}

// A write that timed out was blocked all along: the client stopped reading.
void HttpExchange::wrote(boost::system::error_code ec) {
  stream_.expires_never();
  if (!ec) return;
  failed_ = true;
  if (ec == beast::error::timeout) record_.dropped_as_slow = true;
}

}  // namespace ingot::server
