#pragma once
// DefaultPreemption's choices (docs/scheduling.md §2), as pure functions over plain data:
// which pods of a node to evict so that a pending pod fits there (victims by reprieve),
// and which candidate node to preempt on. The engine (engine_preemption.cc) gathers the
// data, applies the choice and owns the timing (graceful termination, nomination).

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "sim/core/ids.h"
#include "sim/core/sim_time.h"
#include "sim/engine/node_runtime.h"
#include "sim/policy/cluster_view.h"

namespace migsim {

// A bound pod that preemption may evict: one of lower priority than the preemptor.
struct PotentialVictim {
  PodId pod;
  int32_t priority = 0;
  // Its status.startTime (GetPodStartTime): when the kubelet acknowledged it, before
  // pulling its images — its bind in migsim, not the start of its containers.
  SimTime started{};
  const PodRequests* requests = nullptr;
  std::span<const NodeRuntime::Held> devices{};
  // PodDisruptionBudgets that select the pod (indices into the caller's budgets).
  std::span<const uint32_t> budgets{};
};

// A node's resources as they would be with some of its pods gone: a copy of what its
// NodeInfo books (requested resources, device tenants, free shares) that drops as pods
// are removed and comes back as they are restored.
class NodeWithout {
 public:
  // Copies the resource part of `node`, not its labels or pods.
  explicit NodeWithout(const NodeInfo& node);
  void Remove(const PotentialVictim& pod) { Shift(pod, -1); }
  void Restore(const PotentialVictim& pod) { Shift(pod, +1); }
  // NodeInfo::HasRoomFor on what is left: would a pod with `requests` fit now? (The caller
  // checked what eviction cannot change: labels, cordons.)
  bool Fits(const PodRequests& requests) const { return info_.HasRoomFor(requests); }

 private:
  void Shift(const PotentialVictim& pod, int sign);
  void RefreshShares();
  NodeInfo info_;
};

// The victims chosen on one node, and what DefaultPreemption compares nodes by.
struct NodeVictims {
  NodeId node;
  std::vector<PodId> victims{};  // most important first
  int pdb_violations = 0;        // victims whose eviction breaks a PodDisruptionBudget
  int32_t highest_priority = 0;
  // The sum over the victims of their priority plus 2^31 (kVictimPriorityOffset), as
  // pickOneNodeForPreemption sums them: every term is positive, so with equal highest
  // priorities a node with fewer victims wins over one with more of lower priority.
  int64_t priority_sum = 0;
  // The earliest start among the victims of the highest priority: a node whose
  // highest-priority victims started later is preferred (they have done less work).
  SimTime earliest_top_start{};
};

// What pickOneNodeForPreemption adds to each victim's priority before summing
// (int64(math.MaxInt32+1)): it makes every term positive.
inline constexpr int64_t kVictimPriorityOffset = int64_t{1} << 31;

// kube-scheduler's MoreImportantPod (pkg/scheduler/util): higher priority first, then the
// earlier start.
bool MoreImportant(const PotentialVictim& a, const PotentialVictim& b);

// DefaultPreemption's SelectVictimsOnNode. `lower` are the node's pods of lower priority than the preemptor,
// which requests `requests`; `allowed` holds each budget's disruptions allowed (a copy:
// it is consumed as victims are counted). Returns nullopt when the preemptor does not
// fit even with every pod of `lower` gone, or fits without evicting any.
// Otherwise all of `lower` are removed, then reprieved one by one — the pods whose
// eviction would break a budget first, each group from the most important down — as long
// as the preemptor still fits; those that cannot be reprieved are the victims.
std::optional<NodeVictims> SelectVictims(NodeId node, const NodeInfo& info,
                                         std::vector<PotentialVictim> lower,
                                         std::vector<int32_t> allowed, const PodRequests& requests);

// kube-scheduler's pickOneNodeForPreemption (pkg/scheduler/framework/preemption): fewest
// budget violations, then the lowest highest-victim priority, the smallest sum of victim
// priorities each raised by 2^31 (priority_sum), the fewest victims, the latest start
// among the highest-priority victims (GetEarliestPodStartTime), then the first candidate.
// REQUIRES: !candidates.empty().
const NodeVictims& PickPreemptionNode(std::span<const NodeVictims> candidates);
// The order behind PickPreemptionNode: true when `a` is the better node to preempt on.
bool PreemptRather(const NodeVictims& a, const NodeVictims& b);

// How many candidate nodes the dry run looks for among `nodes` (DefaultPreemption's
// GetOffsetAndNumCandidates): max(minCandidateNodesPercentage 10 % of them,
// minCandidateNodesAbsolute 100), at most all.
size_t PreemptionCandidateLimit(size_t nodes);

}  // namespace migsim
