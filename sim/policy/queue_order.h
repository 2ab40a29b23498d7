#pragma once
// A queue discipline: the order in which pending pods are offered to the placement policy
// (kube-scheduler's QueueSort extension point). The engine's default, without one, is
// PrioritySort: higher priority first, then the older pod.

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/policy/cluster_view.h"

namespace migsim {

// The parameters of the queue disciplines that have some (scheduler.fair_share, ...).
struct QueueOrderParams {
  // fair-share: (namespace index, weight > 0); namespaces not listed weigh 1.
  std::vector<std::pair<int32_t, double>> fair_share_weights{};
};

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

  // Fair share: true when the queue is to offer first the pods of the namespace (tenant)
  // with the smallest NamespaceKey, which the engine recomputes as pods bind and end;
  // Less then orders the pods of one namespace.
  virtual bool GroupsByNamespace() const { return false; }
  // Namespace `ns`'s key (smaller goes first), given its dominant share: the largest
  // fraction of a cluster resource its bound pods request (Dominant Resource Fairness).
  virtual double NamespaceKey(int32_t /*ns*/, double dominant_share) const {
    return dominant_share;
  }
};

}  // namespace migsim
