#include "server/http/http_server.h"

#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <thread>

#include "server/http/bearer_auth.h"
#include "server/raw_socket.h"

namespace ingot::server {
namespace {

using testing::RawSocket;
using testing::status_of;

// A server with two routes on a free port, run on its own thread.
class HttpServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    spdlog::set_level(spdlog::level::warn);
    start({});
  }

  void start(HttpOptions options) {
    options.port = 0;
    options.allowed_hosts = {"x"};  // the host the raw requests below name
    options.max_body_bytes = 1024;
    options.max_header_bytes = 2048;
    if (options.header_timeout == HttpOptions{}.header_timeout) {
      options.header_timeout = std::chrono::milliseconds(300);
    }
    Router router;
    router.add({http::verb::get, "/health",
                [](HttpExchange& ex) -> asio::awaitable<void> {
                  // A named value: GCC 12 miscompiles braced temporaries in co_await.
                  nlohmann::json body = {{"status", "ok"}};
                  co_await ex.respond_json(http::status::ok, body);
                },
                /*requires_auth=*/false});
    router.add({http::verb::post, "/echo",
                [](HttpExchange& ex) -> asio::awaitable<void> {
                  co_await ex.respond(http::status::ok, ex.request().body(), "text/plain");
                },
                true, /*json_body=*/true});
    router.add({http::verb::get, "/busy", [](HttpExchange& ex) -> asio::awaitable<void> {
                  ApiError error{503, "server_error", "Busy.", std::nullopt, "server_busy"};
                  co_await ex.respond_error(error);
                }});
    router.add({http::verb::get, "/events", [](HttpExchange& ex) -> asio::awaitable<void> {
                  if (!co_await ex.begin_event_stream()) co_return;
                  for (int i = 0; i < 3; ++i) {
                    if (!co_await ex.send_event("{\"n\":" + std::to_string(i) + "}")) co_return;
                  }
                  co_await ex.send_event("[DONE]");
                  co_await ex.end_event_stream();
                }});
    server_ = std::make_unique<HttpServer>(std::move(options), std::move(router));
    server_->on_answered([this](std::string_view route, int status, bool) {
      answers_.emplace_back(std::string(route), status);  // the I/O thread only
    });
    ASSERT_TRUE(server_->listen().ok());
    thread_ = std::thread([this] { server_->run(); });
  }

  void TearDown() override { stop(); }

  void stop() {
    if (!server_) return;
    server_->shutdown(std::chrono::milliseconds(1000), nullptr);
    thread_.join();
    server_.reset();
  }

  std::string exchange(std::string_view request) {
    RawSocket socket(server_->port());
    EXPECT_TRUE(socket.connected());
    socket.send(request);
    return socket.read_all();
  }

  std::unique_ptr<HttpServer> server_;
  std::thread thread_;
  // What on_answered saw; read after stop() has joined the I/O thread.
  std::vector<std::pair<std::string, int>> answers_;
};

constexpr std::string_view kEchoHead =
    "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nConnection: close\r\n";

TEST_F(HttpServerTest, ServesARoute) {
  std::string response = exchange("GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  EXPECT_EQ(status_of(response), 200);
  EXPECT_NE(response.find("{\"status\":\"ok\"}"), std::string::npos);
}

TEST_F(HttpServerTest, UnknownRouteIs404AndWrongMethodIs405) {
  EXPECT_EQ(status_of(exchange("GET /nope HTTP/1.1\r\nHost: x\r\n\r\n")), 404);
  std::string response = exchange("DELETE /health HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(status_of(response), 405);
  EXPECT_NE(response.find("Allow: GET"), std::string::npos);
  EXPECT_NE(response.find("\"type\":\"invalid_request_error\""), std::string::npos);
}

TEST_F(HttpServerTest, EveryAnswerIsObservedWithItsRoutePatternAndStatus) {
  exchange("GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  exchange("GET /nope HTTP/1.1\r\nHost: x\r\n\r\n");
  exchange(
      "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
      "Content-Length: 2\r\n\r\nhi");
  stop();
  const std::vector<std::pair<std::string, int>> expected = {
      {"/health", 200}, {"unmatched", 404}, {"/echo", 415}};
  EXPECT_EQ(answers_, expected);
}

TEST_F(HttpServerTest, NonJsonContentTypeIs415) {
  std::string response = exchange(
      "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\n{}");
  EXPECT_EQ(status_of(response), 415);
  std::string with_charset = exchange(
      "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json; charset=utf-8\r\n"
      "Content-Length: 2\r\nConnection: close\r\n\r\n{}");
  EXPECT_EQ(status_of(with_charset), 200);
}

TEST_F(HttpServerTest, OversizedBodyIs413ByLengthAndByChunks) {
  std::string declared = std::string(kEchoHead) + "Content-Length: 5000\r\n\r\n";
  EXPECT_EQ(status_of(exchange(declared)), 413);
  std::string chunk(600, 'a');
  std::string chunked = std::string(kEchoHead) + "Transfer-Encoding: chunked\r\n\r\n" + "258\r\n" +
                        chunk + "\r\n258\r\n" + chunk + "\r\n0\r\n\r\n";
  EXPECT_EQ(status_of(exchange(chunked)), 413);
}

// Sends a 32 MiB echo request whole, header and body, however early the
// server answers, then reads the answer.
std::string upload_whole_body(uint16_t port) {
  constexpr size_t kBody = 32u << 20;
  RawSocket socket(port);
  EXPECT_TRUE(socket.send(std::string(kEchoHead) + "Content-Length: " + std::to_string(kBody) +
                          "\r\n\r\n"));
  EXPECT_TRUE(socket.send(std::string(kBody, 'x')));
  return socket.read_all();
}

// A client that keeps uploading the body the server refused must still
// read the refusal: the server discards the body instead of closing on it,
// which would reset the connection under the client's feet. The body is
// larger than any loopback socket buffer, so without the lingering close
// the send itself fails.
TEST_F(HttpServerTest, RefusedBodyIsDiscardedSoTheClientReadsThe413) {
  std::string response = upload_whole_body(server_->port());
  EXPECT_EQ(status_of(response), 413);
  EXPECT_NE(response.find("request_too_large"), std::string::npos);
}

TEST_F(HttpServerTest, ChunkedBodyPastTheLimitIsDiscardedToo) {
  RawSocket socket(server_->port());
  ASSERT_TRUE(socket.send(std::string(kEchoHead) + "Transfer-Encoding: chunked\r\n\r\n"));
  std::string chunk = "100000\r\n" + std::string(1u << 20, 'c') + "\r\n";
  bool sent = true;
  for (int i = 0; i < 24 && sent; ++i) sent = socket.send(chunk);
  EXPECT_TRUE(sent && socket.send("0\r\n\r\n"));
  EXPECT_EQ(status_of(socket.read_all()), 413);
}

class HttpServerLingerTest : public HttpServerTest {
 protected:
  void SetUp() override {
    HttpOptions options;
    options.linger.max_bytes = 1u << 20;
    start(options);
  }
};

// The discard is bounded: a client that never stops sending is cut off.
TEST_F(HttpServerLingerTest, DiscardStopsAtItsByteBound) {
  RawSocket socket(server_->port());
  ASSERT_TRUE(socket.send(std::string(kEchoHead) + "Content-Length: " + std::to_string(1u << 30) +
                          "\r\n\r\n"));
  std::string megabyte(1u << 20, 'x');
  bool sent = true;
  for (int i = 0; i < 1024 && sent; ++i) sent = socket.send(megabyte);
  EXPECT_FALSE(sent);
}

TEST_F(HttpServerTest, OversizedHeaderIs431) {
  std::string request =
      "GET /health HTTP/1.1\r\nHost: x\r\nX-Big: " + std::string(4096, 'b') + "\r\n\r\n";
  EXPECT_EQ(status_of(exchange(request)), 431);
}

TEST_F(HttpServerTest, MalformedRequestLineIs400) {
  EXPECT_EQ(status_of(exchange("NOT HTTP AT ALL\r\n\r\n")), 400);
}

TEST_F(HttpServerTest, PipelinedRequestsAreAnsweredInOrder) {
  RawSocket socket(server_->port());
  socket.send(
      "GET /health HTTP/1.1\r\nHost: x\r\n\r\n"
      "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 7\r\n"
      "\r\n{\"a\":1}"
      "GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  std::string all = socket.read_all();
  size_t first = all.find("HTTP/1.1 200");
  size_t echo = all.find("{\"a\":1}");
  size_t last = all.rfind("HTTP/1.1 200");
  ASSERT_NE(first, std::string::npos);
  ASSERT_NE(echo, std::string::npos);
  EXPECT_LT(first, echo);
  EXPECT_LT(echo, last);
}

TEST_F(HttpServerTest, BodyLongerThanContentLengthIsTheNextRequest) {
  // The extra bytes are parsed as a new request and refused; the first is answered.
  std::string request = std::string(kEchoHead) + "Content-Length: 2\r\n\r\n{}garbage\r\n\r\n";
  std::string response = exchange(request);
  EXPECT_EQ(status_of(response), 200);
}

TEST_F(HttpServerTest, TruncatedBodyGetsNoAnswerAndFreesTheConnection) {
  RawSocket socket(server_->port());
  socket.send(std::string(kEchoHead) + "Content-Length: 100\r\n\r\n{\"partial\":");
  socket.shutdown_write();
  EXPECT_EQ(socket.read_all(), "");
  // The server is still serving others.
  EXPECT_EQ(status_of(exchange("GET /health HTTP/1.1\r\nConnection: close\r\n\r\n")), 200);
}

TEST_F(HttpServerTest, SlowlorisHeaderIsCutOff) {
  RawSocket socket(server_->port());
  socket.send("GET /health HTTP/1.1\r\nHost: x\r\n");  // never finishes the header
  EXPECT_EQ(socket.read_all(), "");                    // returns once the server closes
}

TEST_F(HttpServerTest, EventStreamIsChunkedServerSentEvents) {
  std::string response = exchange("GET /events HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  EXPECT_EQ(status_of(response), 200);
  EXPECT_NE(response.find("Content-Type: text/event-stream"), std::string::npos);
  EXPECT_NE(response.find("data: {\"n\":2}\n\n"), std::string::npos);
  EXPECT_NE(response.find("data: [DONE]\n\n"), std::string::npos);
  EXPECT_NE(response.find("\r\n0\r\n\r\n"), std::string::npos);
}

TEST_F(HttpServerTest, ATransientRefusalSaysWhenToRetry) {
  std::string response = exchange("GET /busy HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  EXPECT_EQ(status_of(response), 503);
  EXPECT_NE(response.find("Retry-After: 1\r\n"), std::string::npos) << response;
}

TEST_F(HttpServerTest, HeadIsAnsweredAsGetWithoutTheBody) {
  std::string response = exchange("HEAD /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  EXPECT_EQ(status_of(response), 200);
  EXPECT_NE(response.find("Content-Length: 15\r\n"), std::string::npos) << response;
  EXPECT_EQ(response.substr(response.size() - 4), "\r\n\r\n") << response;
  std::string refused = exchange("DELETE /health HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_NE(refused.find("Allow: GET, HEAD"), std::string::npos) << refused;
}

TEST_F(HttpServerTest, AnHttp10StreamIsNotChunkedAndEndsWithTheConnection) {
  std::string response = exchange("GET /events HTTP/1.0\r\nHost: x\r\n\r\n");
  EXPECT_EQ(response.substr(0, 12), "HTTP/1.0 200") << response;
  EXPECT_EQ(response.find("Transfer-Encoding"), std::string::npos) << response;
  EXPECT_NE(response.find("\r\n\r\ndata: {\"n\":0}\n\ndata: {\"n\":1}\n\n"), std::string::npos)
      << response;
  EXPECT_EQ(response.substr(response.size() - 14), "data: [DONE]\n\n") << response;
}

TEST_F(HttpServerTest, AChunkedBodyThatDoesNotParseIs400) {
  std::string bad_size =
      std::string(kEchoHead) + "Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n";
  EXPECT_EQ(status_of(exchange(bad_size)), 400);
}

TEST_F(HttpServerTest, CodingsOtherThanChunkedAreRefusedNotMisread) {
  std::string gzip_chunked =
      std::string(kEchoHead) + "Transfer-Encoding: gzip, chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n";
  std::string response = exchange(gzip_chunked);
  EXPECT_EQ(status_of(response), 501);
  EXPECT_NE(response.find("unsupported_transfer_encoding"), std::string::npos);
  std::string gzip_content =
      std::string(kEchoHead) + "Content-Encoding: gzip\r\nContent-Length: 2\r\n\r\n{}";
  EXPECT_EQ(status_of(exchange(gzip_content)), 415);
  std::string plain_chunked =
      std::string(kEchoHead) + "Transfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n";
  EXPECT_EQ(status_of(exchange(plain_chunked)), 200);
}

TEST_F(HttpServerTest, AForeignHostIsRefusedOnLoopback) {
  std::string response =
      exchange("GET /health HTTP/1.1\r\nHost: evil.example:8080\r\nConnection: close\r\n\r\n");
  EXPECT_EQ(status_of(response), 403);
  EXPECT_NE(response.find("host_not_allowed"), std::string::npos);
  EXPECT_EQ(status_of(exchange(
                "GET /health HTTP/1.1\r\nHost: localhost:8080\r\nConnection: close\r\n\r\n")),
            200);
}

TEST_F(HttpServerTest, OnlyAllowedOriginsGetCorsHeadersAndPreflights) {
  std::string foreign = exchange(
      "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: https://evil.example\r\n"
      "Connection: close\r\n\r\n");
  EXPECT_EQ(status_of(foreign), 403);
  EXPECT_NE(foreign.find("origin_not_allowed"), std::string::npos);
  EXPECT_EQ(foreign.find("Access-Control-Allow-Origin"), std::string::npos);
  std::string local = exchange(
      "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://localhost:5173\r\n"
      "Connection: close\r\n\r\n");
  EXPECT_EQ(status_of(local), 200);
  EXPECT_NE(local.find("Access-Control-Allow-Origin: http://localhost:5173\r\n"),
            std::string::npos);
  std::string preflight = exchange(
      "OPTIONS /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://localhost:5173\r\n"
      "Access-Control-Request-Method: POST\r\n"
      "Access-Control-Request-Headers: content-type, authorization\r\nConnection: close\r\n\r\n");
  EXPECT_EQ(status_of(preflight), 204);
  EXPECT_NE(preflight.find("Access-Control-Allow-Headers: content-type, authorization"),
            std::string::npos);
  std::string foreign_preflight = exchange(
      "OPTIONS /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: https://evil.example\r\n"
      "Access-Control-Request-Method: POST\r\nConnection: close\r\n\r\n");
  EXPECT_EQ(status_of(foreign_preflight), 403);
}

class HttpServerAuthTest : public HttpServerTest {
 protected:
  void SetUp() override {
    HttpOptions options;
    options.api_key = "secret-key";
    start(options);
  }
};

TEST_F(HttpServerAuthTest, ApiKeyIsRequiredExceptOnHealth) {
  std::string echo = std::string(kEchoHead) + "Content-Length: 2\r\n";
  EXPECT_EQ(status_of(exchange(echo + "\r\n{}")), 401);
  EXPECT_EQ(status_of(exchange(echo + "Authorization: Bearer wrong\r\n\r\n{}")), 401);
  EXPECT_EQ(status_of(exchange(echo + "Authorization: Bearer secret-key\r\n\r\n{}")), 200);
  EXPECT_EQ(status_of(exchange("GET /health HTTP/1.1\r\nConnection: close\r\n\r\n")), 200);
}

TEST_F(HttpServerAuthTest, ClientReadsThe401WhileStillUploadingALargeBody) {
  EXPECT_EQ(status_of(upload_whole_body(server_->port())), 401);
}

TEST(BearerAuth, ComparesWholeKeys) {
  EXPECT_TRUE(bearer_matches("Bearer abc", "abc"));
  EXPECT_TRUE(bearer_matches("bearer abc", "abc"));
  EXPECT_FALSE(bearer_matches("Bearer ab", "abc"));
  EXPECT_FALSE(bearer_matches("Bearer abcd", "abc"));
  EXPECT_FALSE(bearer_matches("Basic abc", "abc"));
  EXPECT_FALSE(bearer_matches("", "abc"));
}

}  // namespace
}  // namespace ingot::server
