#include "policies/first_fit.h"

namespace migsim {

std::optional<Placement> FirstFitPolicy::Place(const ClusterView& view, const PodView& pod) {
  for (const NodeInfo& node : view.nodes()) {
    if (view.Fits(pod, node)) return Placement{node.id};
  }
  return std::nullopt;
}

}  // namespace migsim
