#pragma once
// One request and its response on a connection: what a route handler gets.
// A handler answers once, either with a whole response or with an event
// stream (Server-Sent Events over chunked transfer encoding).

#include <chrono>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "server/api_error.h"
#include "server/http/http_types.h"

namespace ingot::server {

// What the access log line says of a request, filled in as it goes.
struct AccessRecord {
  std::string route;
  int status = 0;
  int64_t prompt_tokens = 0;
  int64_t completion_tokens = 0;
  double time_to_first_token_ms = -1;
  bool cancelled = false;
  bool dropped_as_slow = false;  // a write blocked past the slow-client timeout
};

class HttpExchange {
 public:
  HttpExchange(beast::tcp_stream& stream, HttpRequest request,
               std::chrono::milliseconds slow_client_timeout);

  const HttpRequest& request() const { return request_; }
  std::string_view path() const;
  std::string_view header(http::field field) const;
  beast::tcp_stream& stream() { return stream_; }

  // Whole responses.
  asio::awaitable<void> respond(http::status status, std::string body,
                                std::string_view content_type,
                                std::vector<std::pair<std::string, std::string>> headers = {});
  asio::awaitable<void> respond_json(http::status status, const nlohmann::json& body);
  asio::awaitable<void> respond_error(
      ApiError error, std::vector<std::pair<std::string, std::string>> headers = {});

  // Event streams. Each returns false once the client is gone; the handler
  // then cancels its work and returns.
  asio::awaitable<bool> begin_event_stream();
  // `event`, when given, names the event (Anthropic's streams name each).
  asio::awaitable<bool> send_event(std::string_view data, std::string_view event = {});
  // An SSE comment (": text"), which clients skip: a keep-alive for a
  // stream with nothing to say, whose write also finds a client gone.
  asio::awaitable<bool> send_comment(std::string_view text);
  asio::awaitable<void> end_event_stream();

  // A header every response of this exchange carries, whole or streamed.
  // Control characters in `value` (a property name, a tool's type: text a
  // client chose) become spaces: a header value carries none.
  void add_header(std::string name, std::string value) {
    for (char& c : value) {
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
    }
    extra_headers_.emplace_back(std::move(name), std::move(value));
  }

  // Whether the request carries the server's API key (or the server has
  // none): a route open to all says more to a client that does.
  bool authorized() const { return authorized_; }
  void set_authorized(bool authorized) { authorized_ = authorized; }

  bool responded() const { return responded_; }
  bool keep_alive() const { return keep_alive_ && !failed_; }
  bool client_gone() const { return failed_; }
  AccessRecord& record() { return record_; }
  std::chrono::steady_clock::time_point started() const { return started_; }

 private:
  asio::awaitable<bool> write_raw(std::string data);
  void wrote(boost::system::error_code ec);

  beast::tcp_stream& stream_;
  HttpRequest request_;
  std::chrono::milliseconds slow_client_timeout_;
  bool keep_alive_;
  bool responded_ = false;
  bool streaming_ = false;
  // HTTP/1.1 streams in chunks; an HTTP/1.0 client knows no chunks, and its
  // stream ends when the connection closes.
  bool chunked_ = true;
  bool authorized_ = false;
  bool failed_ = false;
  AccessRecord record_;
  std::vector<std::pair<std::string, std::string>> extra_headers_;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
};

}  // namespace ingot::server
