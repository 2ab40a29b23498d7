#pragma once
// Where the next pod of a gang (a coscheduling PodGroup) may go besides fitting: the pod
// anti-affinity and pod affinity a distributed job puts on its workers, as kube-scheduler's
// InterPodAffinity filter applies them among the gang's own pods.
//
//   one per node   requiredDuringScheduling podAntiAffinity on kubernetes.io/hostname: no
//                  node holds two pods of the gang.
//   topology       requiredDuringScheduling podAffinity on `topology_key`: every pod of
//                  the gang on nodes whose label `topology_key` is `topology_value` (one
//                  placement group, one network spine).

#include <string>
#include <vector>

#include "sim/core/ids.h"
#include "sim/policy/resources.h"

namespace migsim {

struct NodeInfo;

struct GangConstraint {
  bool one_per_node = false;
  std::vector<NodeId> taken{};  // sorted: nodes holding a pod of the gang (reserved or bound)
  std::string topology_key{};   // empty: no topology constraint
  std::string topology_value{};

  // True when a pod of the gang may go on a node with `labels` and id `node`.
  // O(log taken + labels).
  bool Allows(NodeId node, const Labels& labels) const;
  // Records that a pod of the gang now holds `node`.
  void Take(NodeId node);
};

// The value of label `key` in `labels` (sorted by key), or nullptr.
const std::string* FindLabel(const Labels& labels, const std::string& key);

}  // namespace migsim
