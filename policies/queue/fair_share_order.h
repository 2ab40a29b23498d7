#pragma once
// Fair share across tenants (Dominant Resource Fairness, Ghodsi et al., NSDI'11, as
// Kueue's fair sharing and YARN's DRF scheduler apply it): the next pod comes from the
// namespace whose dominant share — the largest fraction of a cluster resource (cpu, memory,
// GPUs, MIG devices, ...) its bound pods request — divided by its weight is smallest;
// FIFO within a namespace, ties to the older pod; priorities ignored. Non-preemptive.

#include <vector>

#include "sim/policy/queue_order.h"

namespace migsim {

class FairShareOrder final : public QueueOrder {
 public:
  // `weights`: by namespace index; namespaces beyond it weigh 1.
  explicit FairShareOrder(std::vector<double> weights) : weights_(std::move(weights)) {}
  std::string_view name() const override { return "fair-share"; }
  bool Less(const PodView& a, const PodView& b) const override { return a.id < b.id; }
  bool GroupsByNamespace() const override { return true; }
  double NamespaceKey(int32_t ns, double dominant_share) const override {
    const auto i = static_cast<size_t>(ns);
    return i < weights_.size() ? dominant_share / weights_[i] : dominant_share;
  }

 private:
  std::vector<double> weights_;
};

}  // namespace migsim
