#include "policies/best_fit.h"

namespace migsim {

std::optional<Placement> BestFitPolicy::Place(const ClusterView& view, const PodView& pod) {
  const PodRequests& req = *pod.requests;
  if (view.feasible_nodes_to_find() > 0 || req.extended.size() != 1) {
    return Policy::Place(view, pod);
  }
  const std::span<const NodeInfo> nodes = view.nodes();
  const NodeInfo* best = nullptr;
  double best_score = 0;
  const auto take = [&](uint32_t i) {
    const NodeInfo& node = nodes[i];
    if (!view.Fits(pod, node)) return false;
    const double score = *Score(view, pod, node);
    // Groups come in no useful order: ties between them go to the lower node id, as in a
    // scan in cluster order.
    if (best == nullptr || score > best_score || (score == best_score && node.id < best->id)) {
      best = &node;
      best_score = score;
    }
    return true;
  };
  if (!view.ForEachTightest(req.extended.front().resource, req.extended.front().count, take)) {
    return Policy::Place(view, pod);
  }
  if (best == nullptr) return std::nullopt;
  return Placement{best->id, ChooseDevices(view, pod, *best)};
}

}  // namespace migsim
