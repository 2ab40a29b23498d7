#pragma once
// A queue discipline: the order in which pending pods are offered to the placement policy
// (kube-scheduler's QueueSort extension point). It is the one way to order the queue, as
// kube-scheduler enables exactly one QueueSort plugin (frameworkruntime.NewFramework: "only
// one queue sort plugin required for profile"; profile.NewMap: the same in every profile). Its
// one catalog, the orders a scenario's scheduler.queue_order names, is
// policies/queue/queue_orders.h. The engine's default, without one, is PrioritySort:
// higher priority first, then the older pod.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/policy/cluster_view.h"

namespace migsim {

// The parameters of the queue disciplines that have some (scheduler.fair_share, ...).
struct QueueOrderParams {
  // fair-share: (namespace index, weight > 0); namespaces not listed weigh 1.
  std::vector<std::pair<int32_t, double>> fair_share_weights{};
  // las: the attained-service thresholds between its queues (ascending, GPU-seconds), and
  // the wait after which a pending pod moves up one queue (nullopt: never).
  std::vector<double> las_thresholds_gpu_s{3600};
  std::optional<SimTime> las_promote_after{};
};

// What a queue order supplied by a policy (Policy::SuppliedQueueOrder) needs to name what a
// PodView holds as indexes: the run's namespaces (PodView::namespace_index) and resources
// (the ids of its requests). Both outlive the run.
struct QueueNames {
  std::span<const std::string> namespaces{};
  const ResourceTable* resources = nullptr;
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

  // Preemptive disciplines: preemption (DefaultPreemption) compares Rank instead of
  // .spec.priority — a pending pod may evict bound pods of lower rank. `pod` is pending or
  // bound; its rank may change with `now` (Rank must agree with Less on pending pods).
  virtual bool Preemptive() const { return false; }
  virtual int32_t Rank(const PodView& pod, SimTime /*now*/) const { return pod.priority; }
  // The next time after `now` at which the pod's rank changes in a way that could let a
  // pending pod evict one more (a running pod demoted, a pending one promoted), so that
  // blocked pods are retried then; nullopt when there is none.
  virtual std::optional<SimTime> NextRankChange(const PodView& /*pod*/, SimTime /*now*/) const {
    return std::nullopt;
  }
};

}  // namespace migsim
