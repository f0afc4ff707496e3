#include "server/admission_order.h"

#include <gtest/gtest.h>

#include <vector>

namespace ingot::server {
namespace {

// Request `id` admitted once its ticket's turn comes: recorded, then the
// next one let go.
asio::awaitable<void> admit(AdmissionOrder::Ticket& ticket, std::vector<int>& admitted, int id) {
  co_await ticket.wait_turn();
  admitted.push_back(id);
  ticket.release();
}

// Requests reach the engine in the order they arrived, whichever finished
// preparing first; a ticket released without submitting lets the next go.
TEST(AdmissionOrder, TurnsComeInArrivalOrder) {
  asio::io_context io;
  AdmissionOrder order;
  std::vector<int> admitted;
  std::vector<AdmissionOrder::Ticket> tickets;
  for (int i = 0; i < 4; ++i) tickets.push_back(*order.take());
  // The later ones are ready first.
  asio::co_spawn(io, admit(tickets[3], admitted, 3), asio::detached);
  asio::co_spawn(io, admit(tickets[2], admitted, 2), asio::detached);
  io.poll();
  EXPECT_TRUE(admitted.empty());
  asio::co_spawn(io, admit(tickets[0], admitted, 0), asio::detached);
  io.poll();
  EXPECT_EQ(admitted, (std::vector<int>{0}));
  tickets[1].release();  // refused before its turn: not admitted, not in the way
  io.poll();
  EXPECT_EQ(admitted, (std::vector<int>{0, 2, 3}));
  AdmissionOrder::Ticket late = *order.take();
  auto admit_late = [&]() -> asio::awaitable<void> {
    co_await late.wait_turn();
    admitted.push_back(4);
  };
  asio::co_spawn(io, admit_late, asio::detached);
  io.restart();  // it ran out of work, which stops it
  io.poll();
  EXPECT_EQ(admitted, (std::vector<int>{0, 2, 3, 4}));
}

TEST(AdmissionOrder, ARequestCountsFromItsArrivalUpToTheCapacity) {
  AdmissionOrder order;
  order.set_capacity(2);
  std::optional<AdmissionOrder::Ticket> first = order.take();
  std::optional<AdmissionOrder::Ticket> second = order.take();
  ASSERT_TRUE(first && second);
  EXPECT_FALSE(order.take());  // both still render their prompts
  first->release();
  EXPECT_TRUE(order.take());  // the third's place, given back when it goes
}

// A ticket compiling a grammar steps out of line: the ones behind it go
// on, and it goes again after those that were in line when it rejoined.
TEST(AdmissionOrder, ATicketSteppedAsideHoldsNobodyUpAndRejoinsAtTheBack) {
  asio::io_context io;
  AdmissionOrder order;
  std::vector<int> admitted;
  std::vector<AdmissionOrder::Ticket> tickets;
  for (int i = 0; i < 3; ++i) tickets.push_back(*order.take());
  tickets[0].step_aside();
  asio::co_spawn(io, admit(tickets[1], admitted, 1), asio::detached);
  io.poll();
  EXPECT_EQ(admitted, (std::vector<int>{1}));
  tickets[0].rejoin();  // behind 2, which is still in line
  asio::co_spawn(io, admit(tickets[0], admitted, 0), asio::detached);
  io.restart();
  io.poll();
  EXPECT_EQ(admitted, (std::vector<int>{1}));
  asio::co_spawn(io, admit(tickets[2], admitted, 2), asio::detached);
  io.restart();
  io.poll();
  EXPECT_EQ(admitted, (std::vector<int>{1, 2, 0}));
}

// Out of line, a ticket still holds its place in the count.
TEST(AdmissionOrder, ATicketSteppedAsideStillCounts) {
  AdmissionOrder order;
  order.set_capacity(1);
  std::optional<AdmissionOrder::Ticket> first = order.take();
  ASSERT_TRUE(first);
  first->step_aside();
  EXPECT_FALSE(order.take());
  first->release();  // released while aside: its place is given back
  EXPECT_TRUE(order.take());
}

}  // namespace
}  // namespace ingot::server
