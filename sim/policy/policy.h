#pragma once
// The policy API: a policy picks a node for one pending pod at a time, from a read-only
// view, the way kube-scheduler's framework does. The engine validates every answer
// (the node exists and the pod fits) before applying it, so a buggy policy cannot
// corrupt the cluster state; an invalid answer leaves the pod pending and is counted.

#include <cstdint>
#include <optional>
#include <vector>
#include <string_view>

#include "sim/policy/cluster_view.h"

namespace migsim {

struct Placement {
  NodeId node;
  // For a pod asking for a fractional GPU share: which of the node's share GPUs it takes
  // (indices into NodeInfo::share_free: one for a share, k for k whole GPUs). Empty: the
  // engine takes the first that fits.
  std::vector<uint32_t> shares{};
};

class Policy {
 public:
  virtual ~Policy() = default;
  virtual std::string_view name() const = 0;
  // Where to bind `pod`, or nullopt to leave it pending until capacity frees.
  // `view` is valid only during the call.
  virtual std::optional<Placement> Place(const ClusterView& view, const PodView& pod) = 0;
};

// filter -> score -> pick: the shape of most policies. Subclasses give a score; the
// highest-scoring node that fits wins, ties going to the lowest node id so that runs
// are deterministic.
class ScoringPolicy : public Policy {
 public:
  std::optional<Placement> Place(const ClusterView& view, const PodView& pod) override;

 protected:
  // Higher is better. Called only for nodes that fit.
  virtual double Score(const ClusterView& view, const PodView& pod,
                       const NodeInfo& node) const = 0;
};

}  // namespace migsim
