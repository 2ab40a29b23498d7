#include "sim/engine/scheduling_queue.h"

#include <catch2/catch.hpp>
#include <optional>
#include <vector>

namespace migsim {
namespace {

SchedulingClassId Class(uint32_t c) { return SchedulingClassId(c); }

// Runs one cycle, accepting every pod offered; returns the pods in the order offered.
std::vector<uint32_t> AcceptAll(SchedulingQueue& q) {
  std::vector<uint32_t> offered;
  q.BeginCycle();
  while (std::optional<PodId> front = q.Front()) {
    offered.push_back(front->value());
    q.Accept();
  }
  return offered;
}

TEST_CASE("an empty queue has no work and offers nothing", "[engine][scheduling_queue]") {
  SchedulingQueue q(2);
  CHECK_FALSE(q.HasWork());
  q.BeginCycle();
  CHECK_FALSE(q.Front().has_value());
  CHECK(q.pending_upper_bound() == 0);
}

TEST_CASE("pods are offered oldest first across scheduling classes", "[engine][scheduling_queue]") {
  SchedulingQueue q(3);
  q.Push(PodId(0), Class(2));
  q.Push(PodId(1), Class(0));
  q.Push(PodId(2), Class(2));
  q.Push(PodId(3), Class(1));
  q.Push(PodId(4), Class(0));
  CHECK(q.HasWork());
  CHECK(AcceptAll(q) == std::vector<uint32_t>{0, 1, 2, 3, 4});
  CHECK(q.pending_upper_bound() == 0);
  CHECK_FALSE(q.HasWork());
}

TEST_CASE("a rejected head blocks its class but not the classes behind it",
          "[engine][scheduling_queue]") {
  SchedulingQueue q(2);
  q.Push(PodId(0), Class(0));
  q.Push(PodId(1), Class(0));
  q.Push(PodId(2), Class(1));
  q.BeginCycle();
  REQUIRE(q.Front() == PodId(0));
  q.Reject();
  // Pod 1 is in the blocked class: the next offer is pod 2 of the other class.
  REQUIRE(q.Front() == PodId(2));
  q.Accept();
  CHECK_FALSE(q.Front().has_value());
  CHECK(q.pending_upper_bound() == 2);

  SECTION("a pod pushed into a blocked class makes no work") {
    q.Push(PodId(3), Class(0));
    CHECK_FALSE(q.HasWork());
  }
  SECTION("a pod pushed into another class makes work, and only it is offered") {
    q.Push(PodId(3), Class(1));
    CHECK(q.HasWork());
    CHECK(AcceptAll(q) == std::vector<uint32_t>{3});
  }
  SECTION("after UnblockAll the blocked class is offered again from its oldest pod") {
    q.UnblockAll();
    CHECK(q.HasWork());
    CHECK(AcceptAll(q) == std::vector<uint32_t>{0, 1});
  }
}

TEST_CASE("UnblockAll makes no work when no pod is pending", "[engine][scheduling_queue]") {
  SchedulingQueue q(1);
  q.Push(PodId(0), Class(0));
  AcceptAll(q);
  q.UnblockAll();
  CHECK_FALSE(q.HasWork());
}

TEST_CASE("a dropped pod leaves the queue and the next pod of its class is offered",
          "[engine][scheduling_queue]") {
  SchedulingQueue q(1);
  q.Push(PodId(0), Class(0));
  q.Push(PodId(1), Class(0));
  q.BeginCycle();
  REQUIRE(q.Front() == PodId(0));
  q.Drop();
  CHECK(q.pending_upper_bound() == 1);
  REQUIRE(q.Front() == PodId(1));
  q.Reject();
  CHECK_FALSE(q.Front().has_value());
  // Pod 0 is gone for good: the retry starts at pod 1.
  q.UnblockAll();
  CHECK(AcceptAll(q) == std::vector<uint32_t>{1});
}

}  // namespace
}  // namespace migsim

namespace migsim {
namespace {

TEST_CASE("with groups the group of smallest key goes first and is reordered when it changes",
          "[engine][scheduling_queue]") {
  // Classes 0 and 1 in group 0, class 2 in group 1; a group's key grows by one per pod
  // accepted from it, as a tenant's share does when its pods bind.
  SchedulingQueue q(3);
  std::vector<double> key = {0, 0};
  q.set_groups({0, 0, 1}, [&key](uint32_t g) { return key[g]; });
  for (uint32_t p = 0; p < 4; ++p) q.Push(PodId(p), Class(p % 2));
  for (uint32_t p = 4; p < 8; ++p) q.Push(PodId(p), Class(2));
  std::vector<uint32_t> offered;
  q.BeginCycle();
  while (std::optional<PodId> front = q.Front()) {
    offered.push_back(front->value());
    const uint32_t group = front->value() < 4 ? 0 : 1;
    q.Accept();
    key[group] += 1;
    q.Rekey(group);
  }
  // Ties go to the older head: group 0's pod 0 before group 1's pod 4.
  CHECK(offered == std::vector<uint32_t>{0, 4, 1, 5, 2, 6, 3, 7});
}

TEST_CASE("a rejected class leaves its group's other classes on offer",
          "[engine][scheduling_queue]") {
  SchedulingQueue q(3);
  q.set_groups({0, 0, 1}, [](uint32_t g) { return g == 0 ? 0.0 : 1.0; });
  q.Push(PodId(0), Class(0));
  q.Push(PodId(1), Class(1));
  q.Push(PodId(2), Class(2));
  q.BeginCycle();
  REQUIRE(q.Front() == PodId(0));
  q.Reject();
  REQUIRE(q.Front() == PodId(1));
  q.Accept();
  REQUIRE(q.Front() == PodId(2));
  q.Accept();
  CHECK_FALSE(q.Front().has_value());
}

}  // namespace
}  // namespace migsim
