#pragma once
// A queue discipline: the order in which pending pods are offered to the placement policy
// (kube-scheduler's QueueSort extension point). The engine's default, without one, is
// PrioritySort: higher priority first, then the older pod.

#include <string_view>

#include "sim/policy/cluster_view.h"

namespace migsim {

class QueueOrder {
 public:
  virtual ~QueueOrder() = default;
  virtual std::string_view name() const = 0;
  // True when `a` is to be tried before `b`. Must be a strict weak order, and must not
  // change its answer for two pods while they are queued. Ties go to the older pod.
  virtual bool Less(const PodView& a, const PodView& b) const = 0;
  // True when the order can tell apart pods of one scheduling class (alike in requests,
  // selectors and priority), e.g. by run-time estimate: each class is then kept ordered,
  // at O(log n) a push or pop, instead of in creation order.
  virtual bool OrdersWithinClass() const { return false; }
};

}  // namespace migsim
