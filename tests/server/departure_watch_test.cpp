// A client's leaving is noticed while nothing is read from its socket; a
// pipelined request is not a departure, nor (for a stream) a half-close.

#include "server/http/departure_watch.h"

#include <gtest/gtest.h>

#include "raw_socket.h"

namespace ingot::server {
namespace {

using testing::RawSocket;

// One loopback connection: the client's end, and the server's accepted
// socket that a watch is put on.
struct Connection {
  asio::io_context io;
  tcp::acceptor acceptor{io, tcp::endpoint(asio::ip::address_v4::loopback(), 0)};
  RawSocket client{acceptor.local_endpoint().port()};
  tcp::socket socket{acceptor.accept()};

  // Runs the watch's handlers until none is ready.
  void settle() {
    io.restart();
    io.poll();
  }
};

TEST(DepartureWatch, AClientThatClosesIsGoneAndTold) {
  Connection c;
  int told = 0;
  DepartureWatch watch(c.socket, DepartureWatch::EndOfInput::kLeaves, [&told] { ++told; });
  c.settle();
  EXPECT_FALSE(watch.gone());
  c.client.close();
  while (!watch.gone()) c.io.run_one();
  EXPECT_EQ(told, 1);
}

TEST(DepartureWatch, APipelinedRequestIsNotADeparture) {
  Connection c;
  DepartureWatch watch(c.socket, DepartureWatch::EndOfInput::kLeaves);
  ASSERT_TRUE(c.client.send("GET / HTTP/1.1\r\n\r\n"));
  c.io.run_one();  // the wait completes on the bytes, which stay unread
  EXPECT_FALSE(watch.gone());
  EXPECT_EQ(c.socket.available(), 18u);
}

TEST(DepartureWatch, AHalfCloseLeavesAStreamsClientThere) {
  for (auto end_of_input :
       {DepartureWatch::EndOfInput::kLeftToWrites, DepartureWatch::EndOfInput::kLeaves}) {
    Connection c;
    DepartureWatch watch(c.socket, end_of_input);
    c.client.shutdown_write();
    c.io.run_one();
    EXPECT_EQ(watch.gone(), end_of_input == DepartureWatch::EndOfInput::kLeaves);
  }
}

TEST(DepartureWatch, NothingIsToldAfterTheWatchEnds) {
  Connection c;
  int told = 0;
  {
    DepartureWatch watch(c.socket, DepartureWatch::EndOfInput::kLeaves, [&told] { ++told; });
  }
  c.client.close();
  c.io.run_one();
  EXPECT_EQ(told, 0);
}

}  // namespace
}  // namespace ingot::server
