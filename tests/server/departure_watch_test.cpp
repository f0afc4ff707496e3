// A client's leaving is noticed while nothing is read from its socket; a
// pipelined request is not a departure, nor (for a stream) a half-close.

#include "server/http/departure_watch.h"

#include <gtest/gtest.h>

#include "raw_socket.h"

namespace ingot::server {
namespace {

using testing::RawSocket;

// The server side of one loopback connection.
struct Accepted {
  asio::io_context io;
  tcp::acceptor acceptor{io, tcp::endpoint(asio::ip::address_v4::loopback(), 0)};
  tcp::socket socket{io};

  uint16_t port() const { return acceptor.local_endpoint().port(); }
  void accept() { acceptor.accept(socket); }
  // Runs the watch's handlers until none is ready.
  void settle() {
    io.restart();
    io.poll();
  }
};

TEST(DepartureWatch, AClientThatClosesIsGoneAndTold) {
  Accepted server;
  RawSocket client(server.port());
  server.accept();
  int told = 0;
  DepartureWatch watch(server.socket, DepartureWatch::EndOfInput::kLeaves, [&told] { ++told; });
  server.settle();
  EXPECT_FALSE(watch.gone());
  client.close();
  while (!watch.gone()) server.io.run_one();
  EXPECT_EQ(told, 1);
}

TEST(DepartureWatch, APipelinedRequestIsNotADeparture) {
  Accepted server;
  RawSocket client(server.port());
  server.accept();
  DepartureWatch watch(server.socket, DepartureWatch::EndOfInput::kLeaves);
  ASSERT_TRUE(client.send("GET / HTTP/1.1\r\n\r\n"));
  server.io.run_one();  // the wait completes on the bytes, which stay unread
  EXPECT_FALSE(watch.gone());
  EXPECT_EQ(server.socket.available(), 18u);
}

TEST(DepartureWatch, AHalfCloseLeavesAStreamsClientThere) {
  for (auto end_of_input :
       {DepartureWatch::EndOfInput::kLeftToWrites, DepartureWatch::EndOfInput::kLeaves}) {
    Accepted server;
    RawSocket client(server.port());
    server.accept();
    DepartureWatch watch(server.socket, end_of_input);
    client.shutdown_write();
    server.io.run_one();
    EXPECT_EQ(watch.gone(), end_of_input == DepartureWatch::EndOfInput::kLeaves);
  }
}

TEST(DepartureWatch, NothingIsToldAfterTheWatchEnds) {
  Accepted server;
  RawSocket client(server.port());
  server.accept();
  int told = 0;
  {
    DepartureWatch watch(server.socket, DepartureWatch::EndOfInput::kLeaves, [&told] { ++told; });
  }
  client.close();
  server.io.run_one();
  EXPECT_EQ(told, 0);
}

}  // namespace
}  // namespace ingot::server
