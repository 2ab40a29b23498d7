#include "sim/policy/cluster_view.h"

namespace migsim {

bool NodeInfo::CanTakeFromDevices(ResourceId r, int32_t count) const {
  if (r.value() >= device_shares.size() || device_shares[r.value()].units == 0) return true;
  const DeviceShares& s = device_shares[r.value()];
  if (count <= s.units) return s.largest_free >= count;
  return count % s.units == 0 && int64_t{s.whole_free} * s.units >= count;
}

namespace {

// Admits' TaintToleration half, for a node with taints: out of line, since few nodes have
// taints.
[[gnu::noinline]] bool ToleratedOn(const PodView& pod, const NodeInfo& node) {
  static const Tolerations kNone;
  return ToleratesTaints(pod.tolerations != nullptr ? *pod.tolerations : kNone, node.taints);
}

// Admits, inlined into Fits: Fits runs for every node a policy looks at.
[[gnu::always_inline]] inline bool AdmitsNode(const PodView& pod, const NodeInfo& node) {
  if (!node.schedulable) return false;
  if (pod.node_selector != nullptr && !pod.node_selector->empty() &&
      !MatchesSelector(node.labels, *pod.node_selector)) {
    return false;
  }
  if (pod.node_affinity != nullptr && !pod.node_affinity->empty() &&
      !MatchesAffinity(node.labels, *pod.node_affinity)) {
    return false;
  }
  return node.taints.empty() || ToleratedOn(pod, node);  // TaintToleration
}

// Fits' DRA and gang halves, for the few pods with claims or a gang: out of line, so that
// the common path makes no call.
[[gnu::noinline]] bool ClaimsAndGangAllow(const PodView& pod, const NodeInfo& node) {
  if (pod.has_claims() && (node.dra == nullptr || node.mig_pending ||
                           !node.dra->Find(*pod.claims, pod.device_classes))) {
    return false;
  }
  return pod.gang == nullptr || pod.gang->Allows(node.id, node.labels);
}

}  // namespace

bool ClusterView::Fits(const PodView& pod, const NodeInfo& node) const {
  if (!node.HasRoomFor(*pod.requests) || !AdmitsNode(pod, node)) return false;
  return (pod.claims == nullptr && pod.gang == nullptr) || ClaimsAndGangAllow(pod, node);
}

bool ClusterView::Admits(const PodView& pod, const NodeInfo& node) { return AdmitsNode(pod, node); }

}  // namespace migsim
