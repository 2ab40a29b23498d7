#include "sim/controllers/cluster_autoscaler/expander.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "sim/core/check.h"

namespace migsim {

std::string_view ExpanderName(Expander expander) {
  switch (expander) {
    case Expander::kRandom: return "random";
    case Expander::kMostPods: return "most-pods";
    case Expander::kLeastWaste: return "least-waste";
    case Expander::kPrice: return "price";
    case Expander::kPriority: return "priority";
  }
  return "random";
}

std::string_view CapacityTypeName(CapacityType type) {
  return type == CapacityType::kSpot ? "spot" : "on-demand";
}

namespace {

// Lower is better; the relative tolerance keeps float noise from breaking ties.
double Cost(Expander expander, const ScaleUpOption& o, std::span<const NodeGroupSpec> groups) {
  switch (expander) {
    case Expander::kRandom: return 0;
    case Expander::kMostPods: return -static_cast<double>(o.pods);
    case Expander::kLeastWaste: return o.waste;
    case Expander::kPrice: return o.price_per_hour / o.pods;
    case Expander::kPriority: return -static_cast<double>(groups[o.group].priority);
  }
  return 0;
}

}  // namespace

size_t ChooseOption(Expander expander, std::span<const ScaleUpOption> options,
                    std::span<const NodeGroupSpec> groups, Rng& rng) {
  MIGSIM_CHECK(!options.empty(), "an expander with no option to choose from");
  double best = Cost(expander, options.front(), groups);
  for (const ScaleUpOption& o : options) best = std::min(best, Cost(expander, o, groups));
  std::vector<size_t> tied;
  for (size_t i = 0; i < options.size(); ++i) {
    const double cost = Cost(expander, options[i], groups);
    if (cost <= best + 1e-9 * std::max(1.0, std::abs(best))) tied.push_back(i);
  }
  return tied.size() == 1 ? tied.front() : tied[rng.Below(tied.size())];
}

}  // namespace migsim
