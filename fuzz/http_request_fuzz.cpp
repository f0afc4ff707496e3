// A request as it arrives on a socket: Beast's parser with the server's
// limits, then the JSON body and the validation of a chat or a text
// completion request, the path every client byte takes before a route.

#include <boost/beast/http.hpp>
#include <cstdint>
#include <string_view>

#include "fuzz_input.h"
#include "server/openai/chat_request.h"
#include "server/openai/completion_request.h"
#include "server/openai/json_body.h"

namespace {

namespace http = boost::beast::http;

// Feeds the bytes in pieces, as reads from a socket would deliver them.
bool parse_request(std::string_view bytes, size_t piece,
                   http::request_parser<http::string_body>& parser) {
  boost::system::error_code ec;
  parser.header_limit(16u << 10);
  parser.body_limit(8u << 20);
  while (!bytes.empty() && !parser.is_done()) {
    size_t n = std::min(bytes.size(), piece);
    size_t used = parser.put(boost::asio::buffer(bytes.data(), n), ec);
    if (ec == http::error::need_more) {
      if (n == bytes.size()) return false;
      piece *= 2;  // the parser wants the rest of a header line at once
      ec = {};
      continue;
    }
    if (ec) return false;
    bytes.remove_prefix(used);
  }
  return parser.is_done();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ingot::server;
  ingot::fuzz::FuzzInput input(data, size);
  size_t piece = 1 + input.choice(64);
  bool as_completion = input.flag();
  // Half the inputs are a body alone, framed here; the others a whole request.
  std::string_view body;
  http::request_parser<http::string_body> parser;
  std::string framed;
  if (input.flag()) {
    body = input.rest();
  } else if (parse_request(input.rest(), piece, parser)) {
    body = parser.get().body();
  } else {
    return 0;
  }
  auto json = parse_json_body(body);
  if (auto* value = std::get_if<nlohmann::ordered_json>(&json)) {
    RequestLimits limits{{"model", "alias"}, 4096};
    if (as_completion) {
      (void)parse_completion_request(*value, limits);
    } else {
      (void)parse_chat_request(*value, limits);
    }
  }
  return 0;
}
