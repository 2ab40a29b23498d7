#pragma once
// Shortest remaining time first (preemptive): the pending pod with the least remaining
// work first — its run-time estimate (PodView::run_estimate) less what it resumed from
// (resumed × estimate) — pods without an estimate after all, ties to the older pod. A
// pending pod may evict a bound pod with at least one second more left to run (the
// estimate less its resumed part and less how long it has run); pods without an estimate
// rank lowest: they never evict, and any pod with an estimate may evict them.

#include <cmath>
#include <limits>

#include "sim/policy/queue_order.h"

namespace migsim {

class SrtfOrder final : public QueueOrder {
 public:
  std::string_view name() const override { return "srtf"; }
  bool Less(const PodView& a, const PodView& b) const override {
    const std::optional<double> ra = Remaining(a), rb = Remaining(b);
    if (ra != rb) {
      if (!ra || !rb) return ra.has_value();
      return *ra < *rb;
    }
    return a.id < b.id;
  }
  bool OrdersWithinClass() const override { return true; }
  bool Preemptive() const override { return true; }
  // Minus the remaining seconds, rounded up.
  int32_t Rank(const PodView& pod, SimTime /*now*/) const override {
    const std::optional<double> remaining = Remaining(pod);
    if (!remaining) return std::numeric_limits<int32_t>::min();
    const double left_s = std::max(0.0, *remaining - pod.ran.seconds());
    return -static_cast<int32_t>(std::min(std::ceil(left_s), 2e9));
  }

 private:
  // Seconds of work left when the pod (re)started: nullopt without an estimate.
  static std::optional<double> Remaining(const PodView& pod) {
    if (!pod.run_estimate) return std::nullopt;
    return pod.run_estimate->seconds() * (1 - pod.resumed);
  }
};

}  // namespace migsim
