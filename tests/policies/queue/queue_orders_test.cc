// The one catalog of queue orders (scheduler.queue_order): each name it lists makes its
// QueueOrder, "priority" the engine's built-in PrioritySort, "policy" the policy's own.
#include "policies/queue/queue_orders.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <vector>

#include "workloads/scenario.h"

namespace migsim {
namespace {

TEST_CASE("the queue order catalog lists priority first, the scenario's default",
          "[policies][queue]") {
  const std::vector<std::string> names = QueueOrderNames();
  REQUIRE(!names.empty());
  CHECK(names.front() == "priority");
  CHECK(Scenario{}.queue_order == names.front());
}

TEST_CASE("priority makes no queue order object: the engine's PrioritySort is used",
          "[policies][queue]") {
  CHECK(MakeQueueOrder("priority") == nullptr);
}

TEST_CASE("the catalog lists policy, the order a policy supplies, which it does not make itself",
          "[policies][queue]") {
  const std::vector<std::string> names = QueueOrderNames();
  CHECK(std::find(names.begin(), names.end(), kPolicyQueueOrder) != names.end());
}

TEST_CASE("every other name in the queue order catalog makes the order of that name",
          "[policies][queue]") {
  for (const QueueOrderInfo& info : QueueOrderCatalog()) {
    if (info.name == "priority" || info.name == kPolicyQueueOrder) continue;
    INFO(info.name);
    const std::unique_ptr<QueueOrder> order = MakeQueueOrder(info.name);
    REQUIRE(order != nullptr);
    CHECK(order->name() == info.name);
    CHECK(!info.summary.empty());
  }
}

}  // namespace
}  // namespace migsim
