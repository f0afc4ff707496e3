#pragma once
// A blocking loopback TCP client for tests that must send what no HTTP
// library would: truncated bodies, pipelined requests, oversized headers.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace ingot::server::testing {

class RawSocket {
 public:
  explicit RawSocket(uint16_t port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    connected_ = ::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  }
  ~RawSocket() { close(); }
  RawSocket(const RawSocket&) = delete;
  RawSocket& operator=(const RawSocket&) = delete;

  bool connected() const { return connected_; }

  bool send(std::string_view data) {
    while (!data.empty()) {
      ssize_t n = ::send(fd_, data.data(), data.size(), MSG_NOSIGNAL);
      if (n <= 0) return false;
      data.remove_prefix(static_cast<size_t>(n));
    }
    return true;
  }

  // Reads until the server closes the connection.
  std::string read_all() {
    std::string out;
    char buffer[4096];
    for (;;) {
      ssize_t n = ::recv(fd_, buffer, sizeof buffer, 0);
      if (n <= 0) break;
      out.append(buffer, static_cast<size_t>(n));
    }
    return out;
  }

  // Reads until `marker` has arrived (or the connection closes).
  std::string read_until(std::string_view marker) {
    std::string out;
    char c;
    while (out.find(marker) == std::string::npos) {
      ssize_t n = ::recv(fd_, &c, 1, 0);
      if (n <= 0) break;
      out += c;
    }
    return out;
  }

  void shutdown_write() { ::shutdown(fd_, SHUT_WR); }
  void close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_ = -1;
  bool connected_ = false;
};

// "HTTP/1.1 404 Not Found\r\n..." -> 404
inline int status_of(std::string_view response) {
  if (response.size() < 12) return 0;
  return std::stoi(std::string(response.substr(9, 3)));
}

}  // namespace ingot::server::testing
