#include "sim/core/event_queue.h"

#include <catch2/catch.hpp>

#include "sim/core/sim_time.h"

namespace migsim {
namespace {

TEST_CASE("events come out in time order", "[core][event_queue]") {
  EventQueue<int> q;
  q.Push(SimTime::Seconds(3), 3);
  q.Push(SimTime::Seconds(1), 1);
  q.Push(SimTime::Seconds(2), 2);
  REQUIRE(q.NextTime() == SimTime::Seconds(1));
  CHECK(q.Pop().payload == 1);
  CHECK(q.Pop().payload == 2);
  CHECK(q.Pop().payload == 3);
  CHECK(q.empty());
  CHECK_FALSE(q.NextTime().has_value());
}

TEST_CASE("simultaneous events come out in the order they were pushed", "[core][event_queue]") {
  EventQueue<int> q;
  for (int i = 0; i < 100; ++i) q.Push(SimTime::Seconds(5), i);
  for (int i = 0; i < 100; ++i) CHECK(q.Pop().payload == i);
}

TEST_CASE("simulated time rounds seconds to the nearest microsecond", "[core][sim_time]") {
  CHECK(SimTime::Seconds(1.5).micros() == 1'500'000);
  CHECK(SimTime::Seconds(0.0000014).micros() == 1);
  CHECK(SimTime::Seconds(2) + SimTime::Millis(5) == SimTime::Micros(2'005'000));
  CHECK(SimTime::Seconds(87).seconds() == 87.0);
}

}  // namespace
}  // namespace migsim
