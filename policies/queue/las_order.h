#pragma once
// Least attained service, in Tiresias' discretised two-dimensional form (Gu et al.,
// NSDI'19): a job's attained service is GPUs × time run (both dimensions); K queues split
// by ascending thresholds; a pod is in the first queue whose threshold its attained service
// has not reached; queues are served highest first, FIFO within one. Preemptive: a pending
// pod may evict a bound pod of a lower queue, and a running pod crossing a threshold is
// demoted at once (the engine retries the blocked pods then).
//
// Starvation (Tiresias' STARVELIMIT, simplified): with `promote_after`, a pending pod
// moves up one queue for every promote_after it has waited. Ordering by the time the pod
// entered (or will enter) its current queue, created + level × promote_after, is then
// exactly "higher queue first, FIFO by entry into the queue", and does not change while
// pods wait.

#include <optional>
#include <vector>

#include "sim/policy/queue_order.h"

namespace migsim {

class LasOrder final : public QueueOrder {
 public:
  // REQUIRES: `thresholds_gpu_s` ascending and > 0; promote_after > 0 when given.
  LasOrder(std::vector<double> thresholds_gpu_s, std::optional<SimTime> promote_after)
      : thresholds_(std::move(thresholds_gpu_s)), promote_after_(promote_after) {}
  std::string_view name() const override { return "las"; }
  bool Less(const PodView& a, const PodView& b) const override;
  bool OrdersWithinClass() const override { return true; }
  bool Preemptive() const override { return true; }
  // Minus the pod's queue now (0 the highest queue).
  int32_t Rank(const PodView& pod, SimTime now) const override;
  std::optional<SimTime> NextRankChange(const PodView& pod, SimTime now) const override;

  // The queue of a pod with `attained_gpu_s` of service, before any promotion.
  int32_t Level(double attained_gpu_s) const;

 private:
  std::vector<double> thresholds_;
  std::optional<SimTime> promote_after_;
};

}  // namespace migsim
