#pragma once
// Shortest job first (non-preemptive): the pod with the shortest run-time estimate
// (PodView::run_estimate) first; pods without an estimate after all that have one; ties
// by priority, then creation. With exact estimates this is the M/G/1 SJF discipline of
// docs/scheduling.md §6.

#include "sim/policy/queue_order.h"

namespace migsim {

class SjfOrder final : public QueueOrder {
 public:
  std::string_view name() const override { return "sjf"; }
  bool Less(const PodView& a, const PodView& b) const override {
    if (a.run_estimate != b.run_estimate) {
      if (!a.run_estimate || !b.run_estimate) return a.run_estimate.has_value();
      return *a.run_estimate < *b.run_estimate;
    }
    if (a.priority != b.priority) return a.priority > b.priority;
    return a.id < b.id;
  }
  bool OrdersWithinClass() const override { return true; }
};

}  // namespace migsim
