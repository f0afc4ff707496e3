#include "server/http/lingering_close.h"

#include <algorithm>
#include <memory>

namespace ingot::server {

asio::awaitable<size_t> lingering_close(beast::tcp_stream& stream, LingerLimits limits) {
  constexpr size_t kScratchBytes = 64 << 10;
  boost::system::error_code ec;
  stream.socket().shutdown(tcp::socket::shutdown_send, ec);
  auto scratch = std::make_unique<char[]>(kScratchBytes);
  auto deadline = std::chrono::steady_clock::now() + limits.total;
  size_t discarded = 0;
  while (!ec && discarded < limits.max_bytes) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left <= std::chrono::milliseconds::zero()) break;
    stream.expires_after(std::min(left, limits.idle));
    size_t read = co_await stream.async_read_some(asio::buffer(scratch.get(), kScratchBytes),
                                                  asio::redirect_error(asio::use_awaitable, ec));
    discarded += read;
  }
  stream.expires_never();
  co_return discarded;
}

}  // namespace ingot::server
