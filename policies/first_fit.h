#pragma once
#include "sim/policy/policy.h"

namespace migsim {

// The first node, in cluster order, that fits.
class FirstFitPolicy final : public Policy {
 public:
  std::string_view name() const override { return "first-fit"; }
  std::optional<Placement> Place(const ClusterView& view, const PodView& pod) override;
};

}  // namespace migsim
