#include "sim/core/event_queue.h"

#include <catch2/catch.hpp>
#include <random>
#include <set>
#include <utility>

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

TEST_CASE("pushes and pops interleaved at random come out as a sorted list of (time, push order)",
          "[core][event_queue]") {
  EventQueue<int> q;
  std::set<std::pair<int64_t, int>> expected;  // (time, push order)
  std::mt19937 rng(7);
  int pushed = 0;
  for (int step = 0; step < 20000; ++step) {
    if (expected.empty() || std::uniform_int_distribution<int>(0, 2)(rng) > 0) {
      const int64_t t = std::uniform_int_distribution<int64_t>(0, 50)(rng);  // many ties
      q.Push(SimTime::Micros(t), pushed);
      expected.insert({t, pushed++});
    } else {
      REQUIRE(q.NextTime() == SimTime::Micros(expected.begin()->first));
      REQUIRE(q.Pop().payload == expected.begin()->second);
      expected.erase(expected.begin());
    }
  }
  CHECK(q.size() == expected.size());
  CHECK(q.pushed() == static_cast<uint64_t>(pushed));
}

TEST_CASE("simulated time rounds seconds to the nearest microsecond", "[core][sim_time]") {
  CHECK(SimTime::Seconds(1.5).micros() == 1'500'000);
  CHECK(SimTime::Seconds(0.0000014).micros() == 1);
  CHECK(SimTime::Seconds(2) + SimTime::Millis(5) == SimTime::Micros(2'005'000));
  CHECK(SimTime::Seconds(87).seconds() == 87.0);
}

}  // namespace
}  // namespace migsim
