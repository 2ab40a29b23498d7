#include "sim/policy/policy.h"

namespace migsim {

std::optional<Placement> ScoringPolicy::Place(const ClusterView& view, const PodView& pod) {
  std::optional<Placement> best;
  double best_score = 0;
  for (const NodeInfo& node : view.nodes()) {
    if (!view.Fits(pod, node)) continue;
    double score = Score(view, pod, node);
    if (!best || score > best_score) {  // strict: ties keep the lower node id
      best = Placement{node.id};
      best_score = score;
    }
  }
  return best;
}

}  // namespace migsim
