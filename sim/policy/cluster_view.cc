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

// A pod with shared claims: on the node they are allocated on, if any, where its own
// claims and the shared ones not allocated yet are allocated together.
bool SharedClaimsAllow(const PodView& pod, const NodeInfo& node) {
  const std::optional<NodeId> pinned = SharedClaimsNode(*pod.shared_claim_ids, pod.shared_claims);
  if (!pinned || (pinned->valid() && *pinned != node.id)) return false;
  if (node.dra == nullptr || node.mig_pending) return false;
  const std::span<const dra::ResourceClaim> own =
      pod.claims != nullptr ? std::span(*pod.claims) : std::span<const dra::ResourceClaim>();
  if (AllAllocated(*pod.shared_claim_ids, pod.shared_claims)) {
    return own.empty() || node.dra->Find(own, pod.device_classes).has_value();
  }
  const std::vector<dra::ResourceClaim> claims =
      ClaimsToAllocate(own, *pod.shared_claim_ids, pod.shared_claims);
  return node.dra->Find(claims, pod.device_classes).has_value();
}

// Fits' DRA and gang halves, for the few pods with claims or a gang: out of line, so that
// the common path makes no call.
[[gnu::noinline]] bool ClaimsAndGangAllow(const PodView& pod, const NodeInfo& node) {
  if (pod.shared_claim_ids != nullptr && !pod.shared_claim_ids->empty()) {
    if (!SharedClaimsAllow(pod, node)) return false;
  } else if (pod.has_claims() && (node.dra == nullptr || node.mig_pending ||
                                  !node.dra->Find(*pod.claims, pod.device_classes))) {
    return false;
  }
  return pod.gang == nullptr || pod.gang->Allows(node.id, node.labels);
}

}  // namespace

bool ClusterView::Fits(const PodView& pod, const NodeInfo& node) const {
  if (!node.HasRoomFor(*pod.requests) || !AdmitsNode(pod, node)) return false;
  // A pod with shared claims has `claims` set too (PodView): one test for both.
  return (pod.claims == nullptr && pod.gang == nullptr) || ClaimsAndGangAllow(pod, node);
}

bool ClusterView::Admits(const PodView& pod, const NodeInfo& node) { return AdmitsNode(pod, node); }

}  // namespace migsim
