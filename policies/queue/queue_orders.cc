#include "policies/queue/queue_orders.h"

#include "policies/queue/fifo_order.h"
#include "policies/queue/sjf_order.h"
#include "sim/core/check.h"

namespace migsim {

const std::vector<QueueOrderInfo>& QueueOrderCatalog() {
  static const std::vector<QueueOrderInfo> catalog = {
      {"priority",
       "kube-scheduler's PrioritySort (the default): higher priority first, then the older pod"},
      {"fifo", "creation order, whatever the priority"},
      {"sjf",
       "shortest job first: the shortest run-time estimate first (a trace's or generator's "
       "run time, else the job class's on a whole GPU; pods without one last), then higher "
       "priority, then the older pod; non-preemptive"},
  };
  return catalog;
}

std::vector<std::string> QueueOrderNames() {
  std::vector<std::string> names;
  for (const QueueOrderInfo& info : QueueOrderCatalog()) names.emplace_back(info.name);
  return names;
}

std::unique_ptr<QueueOrder> MakeQueueOrder(std::string_view name) {
  if (name == "priority" || name.empty()) return nullptr;
  if (name == "fifo") return std::make_unique<FifoOrder>();
  if (name == "sjf") return std::make_unique<SjfOrder>();
  MIGSIM_CHECK(false, "unknown queue order");
  return nullptr;
}

}  // namespace migsim
