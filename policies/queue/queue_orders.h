#pragma once
// The queue disciplines a scenario can name in `scheduler.queue_order` (docs/scheduling.md
// §1 and §5). "priority" — kube-scheduler's PrioritySort — is the engine's built-in
// default and has no object here; "policy" (kPolicyQueueOrder) is the order the
// scenario's policy supplies (Policy::SuppliedQueueOrder), made from the policy at run time.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sim/policy/queue_order.h"

namespace migsim {

// scheduler.queue_order's name for the order the policy supplies.
inline constexpr std::string_view kPolicyQueueOrder = "policy";

struct QueueOrderInfo {
  std::string_view name;
  std::string_view summary;
};

// Every queue order, "priority" first.
const std::vector<QueueOrderInfo>& QueueOrderCatalog();
std::vector<std::string> QueueOrderNames();
// The order named `name`; nullptr for "priority" (the engine's own PrioritySort).
// REQUIRES: `name` is in QueueOrderNames() and is not kPolicyQueueOrder.
// `params` holds the parameters of those that take some.
std::unique_ptr<QueueOrder> MakeQueueOrder(std::string_view name,
                                           const QueueOrderParams& params = {});

}  // namespace migsim
