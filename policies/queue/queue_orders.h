#pragma once
// The queue disciplines a scenario can name in `scheduler.queue_order` (docs/scheduling.md
// §1 and §5). "priority" — kube-scheduler's PrioritySort — is the engine's built-in
// default and has no object here.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sim/policy/queue_order.h"

namespace migsim {

struct QueueOrderInfo {
  std::string_view name;
  std::string_view summary;
};

// Every queue order, "priority" first.
const std::vector<QueueOrderInfo>& QueueOrderCatalog();
std::vector<std::string> QueueOrderNames();
// The order named `name`; nullptr for "priority" (the engine's own PrioritySort).
// REQUIRES: `name` is in QueueOrderNames().
// `params` holds the parameters of those that take some.
std::unique_ptr<QueueOrder> MakeQueueOrder(std::string_view name,
                                           const QueueOrderParams& params = {});

}  // namespace migsim
